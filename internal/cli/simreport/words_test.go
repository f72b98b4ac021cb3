package simreport

import (
	"strings"
	"testing"
	"time"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// The totals list the reasons in Karpenter's order, each once and only when it removed a node.
func TestTotalsTextOrder(t *testing.T) {
	if got := TotalsText(map[string]int{"Underutilized": 2, "Empty": 1, "Expired": 0}); got != "Empty 1, Underutilized 2" {
		t.Errorf("TotalsText = %q", got)
	}
	if got := Refs(nil); got != "none" {
		t.Errorf("Refs(nil) = %q", got)
	}
}

// A run stopped at the horizon is labelled so, not as a steady state, and its disruptions,
// totals, the nodes that stay and the pods still pending are all shown.
func TestWriteSteadyAtTheHorizon(t *testing.T) {
	v := &simulation.SteadyState{
		Nodes:      []simmodel.SimNode{{Pool: "general", SKU: "Standard_D4s_v5", CapacityType: "on-demand", Zone: "westeurope-1", HourlyPrice: 0.192}},
		HourlyCost: 0.192, Pending: 3, HitHorizon: true, TimeToSteady: 24 * time.Hour, Totals: map[string]int{"Drifted": 1},
		Disruptions: []simulation.DisruptionStep{{At: time.Minute, Reason: "Drifted", Method: "drift",
			Removed: []simulation.NodeRef{{InstanceType: "Standard_D8s_v5", CapacityType: "on-demand"}}}},
		Blocked: []simulation.BlockedStay{{Node: simulation.NodeRef{Name: "n2", Pool: "general", InstanceType: "Standard_D4s_v5"}, Reason: "budget", Detail: "the Drifted budget allows 0"}},
	}
	var b strings.Builder
	WriteSteady(&b, "", v, []string{"general"}, "USD")
	out := b.String()
	for _, want := range []string{
		"Karpenter at the horizon, 24h0m0s after the start, not yet steady: 1 node, USD 0.1920/h",
		"+1m0s Drifted (drift): Standard_D8s_v5 on-demand removed, none launched, 0 pods evicted",
		"totals: Drifted 1; 0 pods evicted",
		"NodePool general at the steady state: USD 0.1920/h",
		"stays: n2 (general Standard_D4s_v5): budget: the Drifted budget allows 0",
		"3 pods pending at the end",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}
