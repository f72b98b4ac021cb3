package disruption_test

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// RunOptions.Observe sees every event in order, and stops the run at the first it rejects.
func TestObserveStopsTheRun(t *testing.T) {
	nodes := func(cl *disruption.Cluster) {
		np := cl.Input.NodePools[0]
		cl.Nodes = []*disruption.Node{node(t, np, "busy", "Standard_D2s_v5", pod("a", "1500m", "4Gi")),
			node(t, np, "empty1", "Standard_D2s_v5"), node(t, np, "empty2", "Standard_D2s_v5")}
	}
	cl := cluster(pool(0))
	nodes(cl)
	var seen []*disruption.Event
	res, err := disruption.Run(cl, disruption.NewController(disruption.Options{}), disruption.RunOptions{Start: t0, Provision: provisioner,
		Observe: func(ev *disruption.Event) bool { seen = append(seen, ev); return true }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped || len(res.Events) < 2 || len(seen) != len(res.Events) {
		t.Fatalf("observing only: stopped %v, %d events, %d seen; want not stopped, 2 or more, all seen:\n%s", res.Stopped, len(res.Events), len(seen), describe(res))
	}
	for i := range seen {
		if seen[i] != res.Events[i] {
			t.Errorf("event %d seen out of order", i)
		}
	}
	cl = cluster(pool(0))
	nodes(cl)
	res, err = disruption.Run(cl, disruption.NewController(disruption.Options{}), disruption.RunOptions{Start: t0, Provision: provisioner,
		Observe: func(*disruption.Event) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || len(res.Events) != 1 || res.Steady {
		t.Fatalf("rejecting the first event: stopped %v, %d events, steady %v; want stopped after 1, not steady:\n%s", res.Stopped, len(res.Events), res.Steady, describe(res))
	}
}
