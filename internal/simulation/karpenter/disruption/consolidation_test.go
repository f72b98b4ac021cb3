package disruption_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"testing"
	"time"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// A 16-cpu node running one small pod is replaced by a cheaper node, after the validation
// delay, and the pod moves to it.
func TestUnderutilizedNodeIsReplacedByACheaperOne(t *testing.T) {
	np := pool(0)
	cl := cluster(np)
	big := node(t, np, "big", "Standard_D16s_v5", pod("small", "500m", "1Gi"))
	cl.Nodes = []*disruption.Node{big}
	res := run(t, cl, disruption.Options{})
	t.Log(describe(res))
	if len(res.Events) != 1 {
		t.Fatalf("%d disruptions, want 1", len(res.Events))
	}
	ev := res.Events[0]
	if ev.Reason != karpv1.DisruptionReasonUnderutilized || ev.Method != disruption.MethodSingle || len(ev.Replacements) != 1 {
		t.Fatalf("got %s/%s with %d replacements, want Underutilized/single with 1", ev.Reason, ev.Method, len(ev.Replacements))
	}
	if got, was := price(ev.Replacements[0]), price(big); got >= was {
		t.Errorf("replacement costs %v, not less than the node's %v", got, was)
	}
	if want := t0.Add(15 * time.Second); !ev.At.Equal(want) {
		t.Errorf("started at +%s, want +15s (the validation delay)", ev.At.Sub(t0))
	}
	if ev.Evicted != 1 || !res.Steady || len(cl.Nodes) != 1 || len(cl.Nodes[0].Pods) != 1 {
		t.Errorf("evicted %d, steady %v, %d nodes left; want 1 pod moved to the one replacement", ev.Evicted, res.Steady, len(cl.Nodes))
	}
}

// Three 4-cpu nodes with half a cpu each consolidate in one multi-node command: the binary
// search keeps the largest prefix, all three, replaced by one cheaper node.
func TestMultiNodeConsolidationTakesTheLargestPrefix(t *testing.T) {
	np := pool(0)
	np.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "100%"}}
	cl := cluster(np)
	for i, name := range []string{"a", "b", "c"} {
		cl.Nodes = append(cl.Nodes, node(t, np, name, "Standard_D4s_v5", pod(fmt.Sprintf("p%d", i), "500m", "1Gi")))
	}
	res := run(t, cl, disruption.Options{})
	t.Log(describe(res))
	if len(res.Events) == 0 {
		t.Fatal("nothing consolidated")
	}
	ev := res.Events[0]
	if ev.Method != disruption.MethodMulti || len(ev.Removed) != 3 || len(ev.Replacements) != 1 {
		t.Fatalf("first disruption %s removed %d with %d replacements, want multi removing 3 with 1", ev.Method, len(ev.Removed), len(ev.Replacements))
	}
	var was float64
	for _, n := range ev.Removed {
		was += price(n)
	}
	if got := price(ev.Replacements[0]); got >= was {
		t.Errorf("replacement costs %v, not less than the three nodes' %v", got, was)
	}
}

func spotPool() *karpv1.NodePool {
	np := pool(0)
	np.Spec.Template.Spec.Requirements[0].Values = []string{karpv1.CapacityTypeSpot}
	return np
}

// A spot node is not replaced by a spot node while the SpotToSpotConsolidation gate is off.
func TestSpotToSpotNeedsItsFeatureGate(t *testing.T) {
	np := spotPool()
	cl := cluster(np)
	cl.Nodes = []*disruption.Node{nodeOf(t, np, "big", "Standard_D16s_v5", karpv1.CapacityTypeSpot, pod("small", "500m", "1Gi"))}
	res := run(t, cl, disruption.Options{})
	blockedFor(t, res, "big", disruption.BlockedSpotToSpot)
}

// With the gate on, the spot node is replaced by a cheaper spot node: at least 15 cheaper
// spot options exist for half a cpu.
func TestSpotToSpotWithItsFeatureGate(t *testing.T) {
	np := spotPool()
	cl := cluster(np)
	big := nodeOf(t, np, "big", "Standard_D16s_v5", karpv1.CapacityTypeSpot, pod("small", "500m", "1Gi"))
	cl.Nodes = []*disruption.Node{big}
	res := run(t, cl, disruption.Options{SpotToSpotConsolidation: true})
	t.Log(describe(res))
	if len(res.Events) != 1 || len(res.Events[0].Replacements) != 1 {
		t.Fatalf("want one spot-to-spot replacement:\n%s", describe(res))
	}
	r := res.Events[0].Replacements[0]
	if r.Labels[karpv1.CapacityTypeLabelKey] != karpv1.CapacityTypeSpot || price(r) >= price(big) {
		t.Errorf("replacement %s %s at %v, want a cheaper spot node than %v", r.Labels["node.kubernetes.io/instance-type"], r.Labels[karpv1.CapacityTypeLabelKey], price(r), price(big))
	}
}

// Under the Balanced policy a move whose savings share is small next to its disruption share
// is refused: one cheap node of many, holding most of the pool's pods.
func TestBalancedRefusesAMoveBelowItsThreshold(t *testing.T) {
	np := pool(0)
	np.Spec.Disruption.ConsolidationPolicy = karpv1.ConsolidationPolicyBalanced
	np.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "100%"}}
	cl := cluster(np)
	var busy []*corev1.Pod
	for i := range 30 {
		busy = append(busy, pod(fmt.Sprintf("b%d", i), "10m", "16Mi"))
	}
	// The small node runs 30 tiny pods; the big nodes are full and kept (do-not-disrupt).
	cl.Nodes = []*disruption.Node{node(t, np, "small", "Standard_D4s_v5", busy...)}
	for i := range 4 {
		n := node(t, np, fmt.Sprintf("big%d", i), "Standard_D64s_v5", pod(fmt.Sprintf("f%d", i), "60", "200Gi"))
		n.Annotations[karpv1.DoNotDisruptAnnotationKey] = "true"
		cl.Nodes = append(cl.Nodes, n)
	}
	res := run(t, cl, disruption.Options{})
	t.Log(describe(res))
	for _, ev := range res.Events {
		for _, n := range ev.Removed {
			if n.Name == "small" {
				t.Fatalf("the Balanced policy let the small node go:\n%s", describe(res))
			}
		}
	}
	if why := res.Blocked["small"]; why == nil || why.Reason != disruption.BlockedBalanced {
		t.Errorf("small: blocked %v, want %q", why, disruption.BlockedBalanced)
	}
}
