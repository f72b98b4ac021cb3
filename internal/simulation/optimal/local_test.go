package optimal

import (
	"math"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// TestLocalSearchLowersSmallPools: on the 100-pod mix, the local search (ruin and recreate)
// takes a good part off the greedy's packing, and what it keeps is valid: every pod placed,
// requests within allocatable, offerings of the pods' zones, the spread within maxSkew.
func TestLocalSearchLowersSmallPools(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   simmodel.SimulationInput
	}{
		{"wide", smallSpreadInput()},
		{"one-family", smallSpreadInput(dFamily)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := compile(testSolver, "westeurope", tc.in)
			pk := md.pack(0)
			greedy := pk.cost()
			pk = md.localSearch(pk)
			if pk.cost() > greedy*0.97 {
				t.Errorf("the local search took the greedy's USD %.4f/h to %.4f/h, want 3 %% or more off", greedy, pk.cost())
			}
			sim := md.report(pk)
			checkSimulation(t, testSolver, tc.in, sim)
			checkZoneSpread(t, tc.in, sim)
		})
	}
}

// TestSmallSpreadMixNearTheBound: the whole optimum on the 100-pod mix (both orders, the
// re-pack with its dive, the local search) lands within 4 % of the configuration bound, where
// the greedy and the re-pack alone were 10–20 % above it, and no worse than either.
func TestSmallSpreadMixNearTheBound(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    simmodel.SimulationInput
		ratio float64
	}{
		{"wide", smallSpreadInput(), 1.04},
		{"one-family", smallSpreadInput(dFamily), 1.04},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.ConfigurationBound = true
			sim := simulate(t, in)
			checkZoneSpread(t, in, sim)
			if sim.HourlyCost > sim.LowerBound*tc.ratio {
				t.Errorf("optimum USD %.4f/h, configuration bound %.4f/h: ratio %.4f above %.2f", sim.HourlyCost, sim.LowerBound, sim.HourlyCost/sim.LowerBound, tc.ratio)
			}
			md := compile(testSolver, "westeurope", in)
			pk := md.pack(0)
			greedy := pk.cost()
			pk = md.repackFromLP(pk)
			if sim.HourlyCost > math.Min(greedy, pk.cost())+1e-6 {
				t.Errorf("optimum USD %.4f/h above the greedy's %.4f/h or its re-pack's %.4f/h", sim.HourlyCost, greedy, pk.cost())
			}
			t.Logf("optimum USD %.4f/h, greedy %.4f/h, re-pack %.4f/h, configuration bound %.4f/h", sim.HourlyCost, greedy, pk.cost(), sim.LowerBound)
		})
	}
}
