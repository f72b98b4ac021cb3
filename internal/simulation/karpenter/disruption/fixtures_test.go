package disruption_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

var t0 = time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)

var aksTypes = func() []*cloudprovider.InstanceType {
	res := aks.List(catalog.Default(), "westeurope", aks.NodeClass{}, aks.Cluster{})
	its := make([]*cloudprovider.InstanceType, len(res.InstanceTypes))
	for i, it := range res.InstanceTypes {
		its[i] = it.InstanceType
	}
	return its
}()

// pool is an on-demand AKS pool, WhenEmptyOrUnderutilized after consolidateAfter.
func pool(consolidateAfter time.Duration) *karpv1.NodePool {
	np := &karpv1.NodePool{}
	np.Name = "general"
	np.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}
	np.Spec.Template.Spec.Requirements = []karpv1.NodeSelectorRequirementWithMinValues{
		{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.CapacityTypeOnDemand}},
		{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpIn, Values: []string{"D"}},
	}
	np.Spec.Disruption.ConsolidationPolicy = karpv1.ConsolidationPolicyWhenEmptyOrUnderutilized
	np.Spec.Disruption.ConsolidateAfter = karpv1.MustParseNillableDuration(consolidateAfter.String())
	np.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "10%"}}
	return np
}

func cluster(np *karpv1.NodePool) *disruption.Cluster {
	return &disruption.Cluster{Input: karpenter.Input{NodePools: []*karpv1.NodePool{np},
		InstanceTypes: map[string][]*cloudprovider.InstanceType{np.Name: aksTypes},
		Launchers:     map[string]cloud.Launcher{np.Name: aks.NewCloud(nil)}}}
}

func pod(name, cpu, mem string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(name), Labels: map[string]string{"app": name}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}}}}},
	}
}

// node is a node of the pool of the instance type, on demand in zone 1, created and
// initialized an hour before t0 with its last pod event then, holding the pods.
func node(t *testing.T, np *karpv1.NodePool, name, instanceType string, pods ...*corev1.Pod) *disruption.Node {
	t.Helper()
	return nodeOf(t, np, name, instanceType, karpv1.CapacityTypeOnDemand, pods...)
}

// nodeOf is node with the capacity type.
func nodeOf(t *testing.T, np *karpv1.NodePool, name, instanceType, capacityType string, pods ...*corev1.Pod) *disruption.Node {
	t.Helper()
	for _, it := range aksTypes {
		if it.Name != instanceType {
			continue
		}
		for _, o := range it.Offerings {
			if o.CapacityType() != capacityType || o.Zone() != "westeurope-1" {
				continue
			}
			nc := &karpenter.NodeClaim{NodePool: np.Name, Requirements: scheduling.NewRequirements(), Launch: &karpenter.Launch{InstanceType: it, Offering: o}}
			ex := karpenter.LaunchedNode(nc, np, name)
			ex.Pods = pods
			n := disruption.NewNode(*ex, np, t0.Add(-time.Hour), t0.Add(-time.Hour))
			return n
		}
	}
	t.Fatalf("no %s offering of %s in westeurope-1", capacityType, instanceType)
	return nil
}

func provisioner(in karpenter.Input) ([]karpenter.ExistingNode, []*corev1.Pod, error) {
	p, err := simulation.Provision(in, simulation.MaxRounds)
	if err != nil {
		return nil, nil, err
	}
	return p.Nodes, p.Pending, nil
}

func run(t *testing.T, cl *disruption.Cluster, opts disruption.Options) *disruption.RunResult {
	t.Helper()
	res, err := disruption.Run(cl, disruption.NewController(opts), disruption.RunOptions{Start: t0, Provision: provisioner})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func describe(res *disruption.RunResult) string {
	s := fmt.Sprintf("steady=%v horizon=%v bound=%v iterations=%d end=+%s\n", res.Steady, res.HitHorizon, res.HitBound, res.Iterations, res.End.Sub(t0))
	for _, ev := range res.Events {
		s += fmt.Sprintf("  +%s %s %s removed=%d replacements=%d evicted=%d\n", ev.At.Sub(t0), ev.Reason, ev.Method, len(ev.Removed), len(ev.Replacements), ev.Evicted)
		for _, n := range ev.Removed {
			s += fmt.Sprintf("    - %s %s\n", n.Name, n.Labels[corev1.LabelInstanceTypeStable])
		}
		for _, n := range ev.Replacements {
			s += fmt.Sprintf("    + %s %s\n", n.Name, n.Labels[corev1.LabelInstanceTypeStable])
		}
	}
	for name, why := range res.Blocked {
		s += fmt.Sprintf("  blocked %s: %s (%s)\n", name, why.Reason, why.Detail)
	}
	return s
}

func price(n *disruption.Node) float64 {
	for _, it := range aksTypes {
		if it.Name == n.Labels[corev1.LabelInstanceTypeStable] {
			p, _ := it.OfferingPrice(n.Labels[corev1.LabelTopologyZone], n.Labels[karpv1.CapacityTypeLabelKey])
			return p
		}
	}
	return 0
}
