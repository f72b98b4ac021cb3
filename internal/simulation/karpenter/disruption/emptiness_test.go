package disruption_test

import (
	"testing"
	"time"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// An empty node is deleted by emptiness, with no replacement, the other left alone.
func TestEmptyNodeIsRemoved(t *testing.T) {
	np := pool(0)
	cl := cluster(np)
	cl.Nodes = []*disruption.Node{node(t, np, "busy", "Standard_D2s_v5", pod("a", "1500m", "4Gi")), node(t, np, "empty", "Standard_D2s_v5")}
	res := run(t, cl, disruption.Options{})
	t.Log(describe(res))
	if len(res.Events) == 0 || res.Events[0].Reason != karpv1.DisruptionReasonEmpty || res.Events[0].Removed[0].Name != "empty" || len(res.Events[0].Replacements) != 0 {
		t.Fatalf("want the empty node deleted by emptiness first:\n%s", describe(res))
	}
	for _, n := range cl.Nodes {
		if n.Name == "empty" {
			t.Errorf("the empty node is still there")
		}
	}
}

// consolidateAfter delays emptiness: a node empty since t0 is deleted 30 minutes later, plus
// the validation delay.
func TestConsolidateAfterDelaysEmptiness(t *testing.T) {
	np := pool(30 * time.Minute)
	cl := cluster(np)
	empty := node(t, np, "empty", "Standard_D2s_v5")
	empty.NodeClaim.Status.LastPodEventTime.Time = t0
	// The busy node is kept, so that its pod does not move to the empty one.
	busy := node(t, np, "busy", "Standard_D2s_v5", pod("a", "1500m", "4Gi"))
	busy.Annotations[karpv1.DoNotDisruptAnnotationKey] = "true"
	cl.Nodes = []*disruption.Node{busy, empty}
	res := run(t, cl, disruption.Options{})
	t.Log(describe(res))
	if len(res.Events) == 0 {
		t.Fatal("the empty node was never deleted")
	}
	if want := t0.Add(30*time.Minute + 15*time.Second); !res.Events[0].At.Equal(want) {
		t.Errorf("deleted at +%s, want +30m15s", res.Events[0].At.Sub(t0))
	}
}

// A consolidation simulation places no candidate pod on a node still under consolidateAfter
// (IsConsolidationSimulation): the busy node's pod does not move to the node that emptied a
// moment ago; the busy node is replaced instead.
func TestConsolidationSkipsNodesUnderConsolidateAfter(t *testing.T) {
	np := pool(30 * time.Minute)
	cl := cluster(np)
	empty := node(t, np, "empty", "Standard_D2s_v5")
	empty.NodeClaim.Status.LastPodEventTime.Time = t0
	cl.Nodes = []*disruption.Node{node(t, np, "busy", "Standard_D2s_v5", pod("a", "1500m", "4Gi")), empty}
	res := run(t, cl, disruption.Options{})
	t.Log(describe(res))
	if len(res.Events) == 0 {
		t.Fatalf("nothing disrupted")
	}
	if first := res.Events[0]; first.Removed[0].Name != "busy" || len(first.Replacements) != 1 {
		t.Fatalf("first disruption removes %s with %d replacements, want busy replaced (not moved onto the empty node)", first.Removed[0].Name, len(first.Replacements))
	}
}
