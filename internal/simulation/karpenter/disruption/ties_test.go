package disruption_test

import (
	"fmt"
	"testing"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// lastTie takes the last alternative of every tie.
type lastTie struct{}

func (lastTie) Choose(n int) int { return n - 1 }

// Three empty nodes of one price and a budget of one node: which goes first is upstream's
// map order. The emulation counts the tie, takes the first node by default, and another one
// when the tie-break says so.
func TestEmptinessOrderUnderABudgetIsATie(t *testing.T) {
	first := func(breaker interface{ Choose(int) int }) (string, int) {
		np := pool(0)
		np.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "1"}}
		cl := cluster(np)
		for i := range 3 {
			cl.Nodes = append(cl.Nodes, node(t, np, fmt.Sprintf("e%d", i), "Standard_D2s_v5"))
		}
		if breaker != nil {
			cl.Input.TieBreaks = breaker
		}
		res := run(t, cl, disruption.Options{})
		if len(res.Events) == 0 || res.Events[0].Reason != karpv1.DisruptionReasonEmpty {
			t.Fatalf("want an emptiness first:\n%s", describe(res))
		}
		return res.Events[0].Removed[0].Name, res.Ties
	}
	name, ties := first(nil)
	if name != "e0" || ties == 0 {
		t.Errorf("default: %s removed first with %d ties counted, want e0 and some ties", name, ties)
	}
	if name, _ := first(lastTie{}); name == "e0" {
		t.Errorf("with the last alternative of every tie, e0 is still removed first")
	}
}

// An empty node within its budget is no choice: no tie is counted.
func TestEmptinessWithinItsBudgetIsNoTie(t *testing.T) {
	np := pool(0)
	cl := cluster(np)
	cl.Nodes = []*disruption.Node{node(t, np, "busy", "Standard_D2s_v5", pod("a", "1500m", "4Gi")), node(t, np, "empty", "Standard_D2s_v5")}
	cl.Nodes[0].Annotations[karpv1.DoNotDisruptAnnotationKey] = "true"
	res := run(t, cl, disruption.Options{})
	if len(res.Events) != 1 || res.Ties != 0 {
		t.Errorf("%d disruptions, %d ties; want 1 and none:\n%s", len(res.Events), res.Ties, describe(res))
	}
}

// Four nodes drifted at the same time are replaced in upstream's map order: the emulation
// replaces n0 first by default, and n3 first with the last alternative of every tie.
func TestDriftOrderAmongEqualTimesIsATie(t *testing.T) {
	first := func(breaker interface{ Choose(int) int }) (string, int) {
		before := pool(0)
		before.Spec.Disruption.ConsolidateAfter = karpv1.MustParseNillableDuration("Never")
		var nodes []*disruption.Node
		for i := range 4 {
			nodes = append(nodes, node(t, before, fmt.Sprintf("n%d", i), "Standard_D2s_v5", pod(fmt.Sprintf("p%d", i), "1500m", "4Gi")))
		}
		after := before.DeepCopy()
		after.Spec.Template.Labels = map[string]string{"team": "web"}
		after.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "1"}}
		cl := cluster(after)
		cl.Nodes = nodes
		if breaker != nil {
			cl.Input.TieBreaks = breaker
		}
		res := run(t, cl, disruption.Options{})
		if len(res.Events) == 0 || res.Events[0].Reason != karpv1.DisruptionReasonDrifted {
			t.Fatalf("want a drift first:\n%s", describe(res))
		}
		return res.Events[0].Removed[0].Name, res.Ties
	}
	if name, ties := first(nil); name != "n0" || ties == 0 {
		t.Errorf("default: %s replaced first with %d ties counted, want n0 and some ties", name, ties)
	}
	if name, _ := first(lastTie{}); name != "n3" {
		t.Errorf("with the last alternative of every tie, %s replaced first, want n3", name)
	}
}

// A node launched next to others takes a name whose order among theirs is a tie (upstream's
// names are random): by default after them, with the last alternative in the last group.
func TestNewNodeNameOrderIsATie(t *testing.T) {
	name := func(breaker interface{ Choose(int) int }) (string, int) {
		np := pool(0)
		np.Spec.Disruption.ConsolidateAfter = karpv1.MustParseNillableDuration("Never")
		cl := cluster(np)
		cl.Nodes = []*disruption.Node{node(t, np, "full", "Standard_D2s_v5", pod("a", "1500m", "4Gi"))}
		cl.Pending = append(cl.Pending, pod("b", "1500m", "4Gi"))
		if breaker != nil {
			cl.Input.TieBreaks = breaker
		}
		res := run(t, cl, disruption.Options{})
		if len(cl.Nodes) != 2 {
			t.Fatalf("%d nodes, want the pending pod on a new one:\n%s", len(cl.Nodes), describe(res))
		}
		return cl.Nodes[1].Name, res.Ties
	}
	if got, ties := name(nil); got != "node-0001" || ties != 1 {
		t.Errorf("default: %s with %d ties, want node-0001 and one tie", got, ties)
	}
	if got, _ := name(lastTie{}); got != "node-z0001" {
		t.Errorf("last alternative: %s, want node-z0001", got)
	}
}
