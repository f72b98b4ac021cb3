package disruption_test

import (
	"fmt"
	"testing"
	"time"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// Four nodes made by a pool whose template then changes drift (the NodePool hash); a budget
// of one node replaces them one at a time, each after the previous replacement initialized.
func TestDriftIsReplacedAtTheBudgetsPace(t *testing.T) {
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
	res := run(t, cl, disruption.Options{})
	t.Log(describe(res))
	if len(res.Events) != 4 {
		t.Fatalf("%d disruptions, want 4", len(res.Events))
	}
	for i, ev := range res.Events {
		if ev.Reason != karpv1.DisruptionReasonDrifted || len(ev.Replacements) != 1 {
			t.Errorf("disruption %d: %s with %d replacements, want Drifted with 1", i, ev.Reason, len(ev.Replacements))
		}
		if want := t0.Add(time.Duration(i) * disruption.DefaultLaunchToInitialized); !ev.At.Equal(want) {
			t.Errorf("disruption %d at +%s, want +%s (one at a time)", i, ev.At.Sub(t0), want.Sub(t0))
		}
	}
	for _, n := range cl.Nodes {
		if n.Labels["team"] != "web" {
			t.Errorf("node %s left without the new template's label", n.Name)
		}
	}
	if !res.Steady {
		t.Error("not steady")
	}
}

// A NodeClaim past its expireAfter is deleted, outside the budgets, and its pod provisioned a
// new node.
func TestExpireAfterExpires(t *testing.T) {
	np := pool(0)
	np.Spec.Disruption.ConsolidateAfter = karpv1.MustParseNillableDuration("Never")
	np.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "0"}}
	np.Spec.Template.Spec.ExpireAfter = karpv1.MustParseNillableDuration("2h")
	cl := cluster(np)
	cl.Nodes = []*disruption.Node{node(t, np, "old", "Standard_D2s_v5", pod("a", "1500m", "4Gi"))}
	res, err := disruption.Run(cl, disruption.NewController(disruption.Options{}), disruption.RunOptions{Start: t0, Horizon: 2 * time.Hour, Provision: provisioner})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(describe(res))
	if len(res.Events) != 1 || res.Events[0].Reason != disruption.ReasonExpired || !res.Events[0].At.Equal(t0.Add(time.Hour)) {
		t.Fatalf("want one expiry at +1h:\n%s", describe(res))
	}
	if len(cl.Nodes) != 1 || cl.Nodes[0].Name == "old" || len(cl.Nodes[0].Pods) != 1 {
		t.Fatalf("want the pod on a new node")
	}
	// The new node expires at +3h, past the horizon: the run is steady at its end.
	if !res.Steady {
		t.Errorf("not steady at the horizon")
	}
}
