package provisioningsimulation

import (
	"testing"
	"time"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// steadyOf carries every part of a steady state: the way the run ended, the totals of every
// reason (0 where none), money rounded to the currency's precision, and the blocked nodes with
// their reasons.
func TestSteadyOfMapsEveryPart(t *testing.T) {
	node := simulation.NodeRef{Name: "n1", Pool: "general", InstanceType: "Standard_D4s_v5", CapacityType: "on-demand", Zone: "westeurope-1",
		HourlyPrice: 0.1920000000004, PriceSource: "list 2026-06-18"}
	v := &simulation.SteadyState{
		Nodes:      []simmodel.SimNode{{Pool: "general", SKU: "Standard_D4s_v5", Zone: "westeurope-1", CapacityType: "on-demand", HourlyPrice: 0.192, PriceSource: "list 2026-06-18"}},
		HourlyCost: 0.192, Currency: "USD", Pending: 2, TimeToSteady: 90 * time.Second, HitHorizon: true,
		Disruptions: []simulation.DisruptionStep{{At: 30 * time.Second, Reason: "Empty", Method: "emptiness", Removed: []simulation.NodeRef{node}, Savings: 0.19200000001}},
		Totals:      map[string]int{"Empty": 1}, PodsEvicted: 0,
		Blocked:     []simulation.BlockedStay{{Node: node, Reason: "pdb", Detail: "PDB shop/web allows no eviction", Drifted: true}},
		Assumptions: []string{"drains are instant"},
	}
	got := steadyOf(v)
	if got.Ended.ValueString() != endedHorizon || got.Seconds.ValueFloat64() != 90 || got.Pending.ValueInt64() != 2 || got.Method.ValueString() != steadyMethod {
		t.Errorf("ended %q after %v s, %d pending, method %q", got.Ended.ValueString(), got.Seconds.ValueFloat64(), got.Pending.ValueInt64(), got.Method.ValueString())
	}
	if len(got.Totals) != 4 || got.Totals["Empty"] != 1 || got.Totals["Expired"] != 0 {
		t.Errorf("totals %v", got.Totals)
	}
	if d := got.Disruptions; len(d) != 1 || d[0].Saving != 0.192 || d[0].Removed[0].HourlyPrice != 0.192 || len(d[0].Replacements) != 0 || d[0].Replacements == nil {
		t.Errorf("disruptions %+v", d)
	}
	if b := got.Blocked; len(b) != 1 || b[0].Reason != "pdb" || !b[0].Drifted || b[0].Node.SKU != "Standard_D4s_v5" || b[0].Node.PriceSource != "list 2026-06-18" {
		t.Errorf("blocked %+v", b)
	}
	if got.Prices.ValueString() != "list 2026-06-18" || got.MonthlyCost.ValueFloat64() != 140.16 {
		t.Errorf("prices %q, monthly %v", got.Prices.ValueString(), got.MonthlyCost.ValueFloat64())
	}
	if steadyOf(nil) != nil {
		t.Error("no steady state gives a value")
	}
	v.HitHorizon, v.HitBound = false, true
	if e := steadyOf(v).Ended.ValueString(); e != endedBoundary {
		t.Errorf("at the bound: ended %q", e)
	}
}
