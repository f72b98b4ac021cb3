package karpenter

import (
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

// memoSolve is Solve with the memo given (nil: none).
func memoSolve(t *testing.T, memo *Memo, np *karpv1.NodePool, its []*cloudprovider.InstanceType, nodes []ExistingNode, pods []*corev1.Pod) string {
	t.Helper()
	res, err := Solve(Input{NodePools: []*karpv1.NodePool{np}, InstanceTypes: map[string][]*cloudprovider.InstanceType{np.Name: its},
		Launchers: map[string]cloud.Launcher{np.Name: aks.NewCloud(nil)}, Pods: pods, ExistingNodes: nodes, Memo: memo})
	if err != nil {
		t.Fatal(err)
	}
	return resultSummary(res)
}

// resultSummary names what a result decided: the pods bound per existing node, and per
// NodeClaim its pods and zones.
func resultSummary(res *Result) string {
	var parts []string
	for name, pods := range res.ExistingNodePods {
		parts = append(parts, fmt.Sprintf("%s:%d", name, len(pods)))
	}
	for _, nc := range res.NodeClaims {
		zones := nc.Requirements.Get(corev1.LabelTopologyZone).Values()
		slices.Sort(zones)
		parts = append(parts, fmt.Sprintf("claim:%d:%v", len(nc.Pods), zones))
	}
	slices.Sort(parts)
	return fmt.Sprint(parts, " pending:", len(res.PodErrors))
}

func zoneSpread(p *corev1.Pod) *corev1.Pod {
	p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
		WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	return p
}

// A node's pods replaced in place (the same slice, other pods) are summed again: with the
// two 1-cpu pods swapped for 100m ones, the pending pod fits on the node.
func TestMemoFollowsPodsReplacedInPlace(t *testing.T) {
	its := westeurope()
	memo := NewMemo()
	a := node("a", "westeurope-1", "2", pod("old", 0, "1"), pod("old", 1, "1"))
	pending := []*corev1.Pod{pod("web", 0, "1")}
	first := memoSolve(t, memo, pool("general"), its, []ExistingNode{a}, pending)
	if first != memoSolve(t, nil, pool("general"), its, []ExistingNode{a}, pending) {
		t.Fatalf("with a memo %s, without %s", first, memoSolve(t, nil, pool("general"), its, []ExistingNode{a}, pending))
	}
	a.Pods[0], a.Pods[1] = pod("small", 0, "100m"), pod("small", 1, "100m")
	got := memoSolve(t, memo, pool("general"), its, []ExistingNode{a}, pending)
	want := memoSolve(t, nil, pool("general"), its, []ExistingNode{a}, pending)
	if got != want || want == first {
		t.Fatalf("after the pods changed: with the memo %s, without %s (before %s)", got, want, first)
	}
}

// zones12Pool is pool general in zones 1 and 2 of westeurope.
func zones12Pool() *karpv1.NodePool {
	np := pool("general")
	np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, karpv1.NodeSelectorRequirementWithMinValues{
		Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"westeurope-1", "westeurope-2"}})
	return np
}

// The bound pods a spread counts follow the node's pods and its zone label, changed in place:
// the new pod goes to the zone with fewer web pods.
func TestMemoFollowsSpreadCountsAndLabels(t *testing.T) {
	its := westeurope()
	memo := NewMemo()
	a := node("a", "westeurope-1", "2", zoneSpread(pod("web", 0, "1")), zoneSpread(pod("web", 1, "1")))
	pending := []*corev1.Pod{zoneSpread(pod("web", 2, "1"))}
	np := zones12Pool()
	var seen []string
	check := func(step string) {
		t.Helper()
		got := memoSolve(t, memo, np, its, []ExistingNode{a}, pending)
		if want := memoSolve(t, nil, np, its, []ExistingNode{a}, pending); got != want {
			t.Fatalf("%s: with the memo %s, without %s", step, got, want)
		}
		seen = append(seen, got)
	}
	check("two web pods in zone 1")
	a.Labels[corev1.LabelTopologyZone] = "westeurope-2"
	check("the node moved to zone 2")
	// Back in zone 1, where the memo's first entry counted two web pods.
	a.Labels[corev1.LabelTopologyZone] = "westeurope-1"
	a.Pods[0], a.Pods[1] = pod("api", 0, "1"), pod("api", 1, "1")
	check("back in zone 1, the web pods replaced by api pods")
	if seen[0] == seen[1] || seen[2] == seen[0] {
		t.Fatalf("the steps should decide differently: %v", seen)
	}
}

// A pool edited in place between two Solves gets a new domain index: a spread over the zones
// the pool allows follows the edit.
func TestMemoFollowsPoolEditedInPlace(t *testing.T) {
	its := westeurope()
	memo := NewMemo()
	np := pool("general")
	zones := karpv1.NodeSelectorRequirementWithMinValues{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"westeurope-1"}}
	np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, zones)
	pending := []*corev1.Pod{zoneSpread(pod("web", 0, "1")), zoneSpread(pod("web", 1, "1"))}
	first := memoSolve(t, memo, np, its, nil, pending)
	np.Spec.Template.Spec.Requirements[1].Values = []string{"westeurope-1", "westeurope-2", "westeurope-3"}
	got := memoSolve(t, memo, np, its, nil, pending)
	want := memoSolve(t, nil, np, its, nil, pending)
	if got != want || want == first {
		t.Fatalf("after the pool's zones changed: with the memo %s, without %s (before %s)", got, want, first)
	}
}
