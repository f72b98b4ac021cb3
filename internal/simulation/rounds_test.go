package simulation

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
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// roundsInput is one pool limited to 20 cpu and four 1-cpu pods that each need their own
// node (hostname anti-affinity).
func roundsInput() karpenter.Input {
	res := aks.List(catalog.Default(), "westeurope", aks.NodeClass{}, aks.Cluster{})
	its := make([]*cloudprovider.InstanceType, len(res.InstanceTypes))
	for i, it := range res.InstanceTypes {
		its[i] = it.InstanceType
	}
	np := &karpv1.NodePool{}
	np.Name = "general"
	np.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}
	np.Spec.Template.Spec.Requirements = []karpv1.NodeSelectorRequirementWithMinValues{{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.CapacityTypeOnDemand}}}
	np.Spec.Limits = karpv1.Limits{corev1.ResourceCPU: resource.MustParse("20")}
	var pods []*corev1.Pod
	for i := range 4 {
		name := fmt.Sprintf("apart-%d", i)
		pods = append(pods, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(name), Labels: map[string]string{"app": "apart"}},
			Spec: corev1.PodSpec{
				Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("1Gi")}}}},
				Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
					TopologyKey: corev1.LabelHostname, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "apart"}}}}}},
			},
		})
	}
	return karpenter.Input{NodePools: []*karpv1.NodePool{np}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"general": its},
		Launchers: map[string]cloud.Launcher{"general": aks.NewCloud(nil)}, Pods: pods}
}

// Round 1 charges each NodeClaim with its largest option, so the 20-cpu limit stops it before
// every pod has a node; once they launch small, the limit is charged at what launched and later rounds place
// the rest, one anti-affine pod a node.
func TestRoundsPlaceWhatTheLimitsLeaveOnceLaunched(t *testing.T) {
	p, err := Provision(roundsInput(), MaxRounds)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rounds) < 2 {
		t.Fatalf("%d rounds, want at least 2 (round 1 stopped by limits charged at the largest option)", len(p.Rounds))
	}
	if first := p.Rounds[0]; len(first.Result.PodErrors) == 0 {
		t.Fatalf("round 1 left no pod pending")
	}
	if len(p.Pending) != 0 || len(p.Nodes) != 4 || p.HitBound {
		t.Fatalf("after %d rounds: %d pending, %d nodes, bound hit %v; want 0, 4, false", len(p.Rounds), len(p.Pending), len(p.Nodes), p.HitBound)
	}
	var cpu resource.Quantity
	for _, n := range p.Nodes {
		cpu.Add(n.Capacity[corev1.ResourceCPU])
	}
	if cpu.Cmp(resource.MustParse("20")) > 0 {
		t.Fatalf("the nodes hold %s cpu, over the 20 cpu limit", cpu.String())
	}
	bound, err := Provision(roundsInput(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !bound.HitBound || len(bound.Rounds) != 1 || len(bound.Pending) == 0 {
		t.Fatalf("with one round allowed: bound hit %v, %d rounds, %d pending", bound.HitBound, len(bound.Rounds), len(bound.Pending))
	}
}

// Every round that placed a pod is reported, with the nodes its NodeClaims became.
func TestRoundsReportEachRound(t *testing.T) {
	p, err := Provision(roundsInput(), MaxRounds)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for i, r := range p.Rounds {
		if r.Placed == 0 || len(r.Launched) != len(r.Result.NodeClaims) {
			t.Fatalf("round %d: placed %d, launched %d of %d NodeClaims", i+1, r.Placed, len(r.Launched), len(r.Result.NodeClaims))
		}
		total += r.Placed
		t.Logf("round %d: %d NodeClaims, %d pending", i+1, len(r.Result.NodeClaims), len(r.Result.PodErrors))
	}
	if total != 4 {
		t.Fatalf("rounds placed %d pods, want 4", total)
	}
}
