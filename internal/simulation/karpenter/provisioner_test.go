package karpenter

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// These check single rules on small inputs; internal/simulation/benchcmp compares whole decisions
// with Karpenter's own scheduler.

func westeurope() []*cloudprovider.InstanceType {
	res := aks.List(catalog.Default(), "westeurope", aks.NodeClass{}, aks.Cluster{})
	out := make([]*cloudprovider.InstanceType, len(res.InstanceTypes))
	for i, it := range res.InstanceTypes {
		out[i] = it.InstanceType
	}
	return out
}

func pool(name string) *karpv1.NodePool {
	np := &karpv1.NodePool{}
	np.Name = name
	np.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}
	np.Spec.Template.Spec.Requirements = []karpv1.NodeSelectorRequirementWithMinValues{{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.CapacityTypeOnDemand}}}
	return np
}

func pod(app string, i int, cpu string) *corev1.Pod {
	name := fmt.Sprintf("%s-%d", app, i)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(name), Labels: map[string]string{"app": app}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse("256Mi")}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending},
	}
}

func solve(t *testing.T, pods []*corev1.Pod) *Result {
	t.Helper()
	its := westeurope()
	res, err := Solve(Input{NodePools: []*karpv1.NodePool{pool("general")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"general": its}, Launchers: map[string]cloud.Launcher{"general": aks.NewCloud(nil)}, Pods: pods})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Small pods without constraints share one NodeClaim; with a required hostname anti-affinity
// on themselves each needs its own.
func TestHostnameAntiAffinityOpensANodeClaimPerPod(t *testing.T) {
	var plain, spread []*corev1.Pod
	for i := range 3 {
		plain = append(plain, pod("plain", i, "100m"))
		p := pod("apart", i, "100m")
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			TopologyKey: corev1.LabelHostname, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "apart"}}}}}}
		spread = append(spread, p)
	}
	if res := solve(t, plain); len(res.NodeClaims) != 1 || len(res.PodErrors) != 0 {
		t.Fatalf("plain: %d NodeClaims, %d errors", len(res.NodeClaims), len(res.PodErrors))
	}
	res := solve(t, spread)
	if len(res.NodeClaims) != 3 || len(res.PodErrors) != 0 {
		t.Fatalf("anti-affinity: %d NodeClaims, %d errors", len(res.NodeClaims), len(res.PodErrors))
	}
	for _, nc := range res.NodeClaims {
		if len(nc.Pods) != 1 || nc.Launch == nil {
			t.Fatalf("NodeClaim with %d pods, launch %v", len(nc.Pods), nc.Launch)
		}
	}
}

// The queue takes the largest pods first. A NodeClaim's options narrow to the sizes that hold
// all its pods, and the launch is the cheapest of those.
func TestOptionsNarrowAndTheCheapestLaunches(t *testing.T) {
	res := solve(t, []*corev1.Pod{pod("small", 0, "500m"), pod("big", 0, "3")})
	if len(res.NodeClaims) != 1 {
		t.Fatalf("%d NodeClaims", len(res.NodeClaims))
	}
	nc := res.NodeClaims[0]
	if nc.Pods[0].Name != "big-0" {
		t.Fatalf("queue order: first pod %s, want big-0", nc.Pods[0].Name)
	}
	for _, it := range nc.InstanceTypeOptions {
		if it.Capacity.Cpu().MilliValue() < 3500 {
			t.Fatalf("option %s (%s cpu) cannot hold 3.5 cpu", it.Name, it.Capacity.Cpu())
		}
	}
	for _, it := range nc.InstanceTypeOptions {
		for _, o := range it.Offerings.Available().Compatible(nc.Requirements) {
			if o.Price < nc.Launch.Offering.Price {
				t.Fatalf("launched %s at %v, but %s offers %v", nc.Launch.InstanceType.Name, nc.Launch.Offering.Price, it.Name, o.Price)
			}
		}
	}
}
