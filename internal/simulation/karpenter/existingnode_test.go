package karpenter

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

func node(name, zone, cpu string, pods ...*corev1.Pod) ExistingNode {
	list := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse("16Gi"), corev1.ResourcePods: resource.MustParse("110")}
	return ExistingNode{Name: name, Labels: map[string]string{karpv1.NodePoolLabelKey: "general", corev1.LabelTopologyZone: zone, corev1.LabelHostname: name},
		Allocatable: list, Capacity: list, Pods: pods}
}

func solveOn(t *testing.T, np *karpv1.NodePool, nodes []ExistingNode, pods []*corev1.Pod) *Result {
	t.Helper()
	res, err := Solve(Input{NodePools: []*karpv1.NodePool{np}, InstanceTypes: map[string][]*cloudprovider.InstanceType{np.Name: westeurope()},
		Launchers: map[string]cloud.Launcher{np.Name: aks.NewCloud(nil)}, Pods: pods, ExistingNodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Pods fill an existing node with room before any NodeClaim is made; the rest open one.
func TestPodsGoToExistingNodesFirst(t *testing.T) {
	var pods []*corev1.Pod
	for i := range 4 {
		pods = append(pods, pod("web", i, "1"))
	}
	res := solveOn(t, pool("general"), []ExistingNode{node("b", "westeurope-1", "2"), node("a", "westeurope-1", "1")}, pods)
	if got := len(res.ExistingNodePods["a"]) + len(res.ExistingNodePods["b"]); got != 3 {
		t.Fatalf("%d pods on existing nodes, want 3 (a: 1 cpu, b: 2 cpu): %v", got, res.ExistingNodePods)
	}
	if len(res.ExistingNodePods["a"]) != 1 {
		t.Fatalf("node a (first by name) holds %d pods, want 1", len(res.ExistingNodePods["a"]))
	}
	if len(res.NodeClaims) != 1 || len(res.NodeClaims[0].Pods) != 1 {
		t.Fatalf("%d NodeClaims, want 1 with the fourth pod", len(res.NodeClaims))
	}
}

// A pool's limits are charged with its existing nodes' capacity.
func TestExistingNodesChargeTheLimits(t *testing.T) {
	np := pool("general")
	np.Spec.Limits = karpv1.Limits{corev1.ResourceCPU: resource.MustParse("10")}
	full := node("a", "westeurope-1", "8", pod("old", 0, "7500m"))
	res := solveOn(t, np, []ExistingNode{full}, []*corev1.Pod{pod("web", 0, "1")})
	for _, nc := range res.NodeClaims {
		for _, it := range nc.InstanceTypeOptions {
			if it.Capacity.Cpu().Cmp(resource.MustParse("2")) > 0 {
				t.Fatalf("option %s with %s cpu exceeds the 2 cpu the limit leaves", it.Name, it.Capacity.Cpu())
			}
		}
	}
	if len(res.NodeClaims) != 1 {
		t.Fatalf("%d NodeClaims, want 1 within the 2 cpu left", len(res.NodeClaims))
	}
}

// A zone spread counts the pods already bound: with two in zone 1, the next goes elsewhere.
func TestSpreadCountsBoundPods(t *testing.T) {
	spread := func(p *corev1.Pod) *corev1.Pod {
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
			WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
		return p
	}
	bound := []*corev1.Pod{spread(pod("web", 0, "1")), spread(pod("web", 1, "1"))}
	res := solveOn(t, pool("general"), []ExistingNode{node("a", "westeurope-1", "2", bound...)}, []*corev1.Pod{spread(pod("web", 2, "1"))})
	if len(res.NodeClaims) != 1 {
		t.Fatalf("%d NodeClaims, want 1", len(res.NodeClaims))
	}
	if z := res.NodeClaims[0].Requirements.Get(corev1.LabelTopologyZone); z.Has("westeurope-1") {
		t.Fatalf("the pod may land in westeurope-1 (%v), which already holds two", z)
	}
}
