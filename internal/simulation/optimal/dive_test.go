package optimal

import (
	"math"
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// smallSpreadMix is the requests and counts of BenchmarkSolverVsUpstream's 100-pod mix
// (internal/simulation/benchcmp, workloads(42, 100)): 14 Deployments, five of them spread over
// the zones with maxSkew 1. In westeurope every size is assumed offered in all four zones, so
// each zone gets a few spread pods and needs nodes of its own.
func smallSpreadMix() []simmodel.Workload {
	ws := []simmodel.Workload{
		pods("app-000", 1, "4", "32Gi"),
		pods("app-001", 2, "2", "4Gi"),
		pods("app-002", 1, "250m", "1Gi"),
		pods("app-003", 5, "100m", "102Mi"),
		pods("app-004", 5, "100m", "819Mi"),
		pods("app-005", 40, "100m", "819Mi"),
		pods("app-006", 5, "500m", "2Gi"),
		pods("app-007", 5, "1500m", "1536Mi"),
		pods("app-008", 8, "4", "2Gi"),
		pods("app-009", 10, "1", "2Gi"),
		pods("app-010", 3, "1", "4Gi"),
		pods("app-011", 5, "500m", "1Gi"),
		pods("app-012", 2, "500m", "512Mi"),
		pods("app-013", 8, "2", "16Gi"),
	}
	for _, i := range []int{5, 7, 10, 11, 13} {
		ws[i].ZoneSpread = 1
	}
	return ws
}

var dFamily = karpv1.NodeSelectorRequirementWithMinValues{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpIn, Values: []string{"D"}}

// checkZoneSpread fails when a spread workload's pods per zone (over its class's zones) differ
// by more than its maxSkew: checkSimulation does not look at zones.
func checkZoneSpread(t *testing.T, in simmodel.SimulationInput, sim *simmodel.Simulation) {
	t.Helper()
	md := compile(testSolver, in.Region, in)
	perZone := map[string]map[string]int{}
	for _, n := range sim.Nodes {
		for _, pc := range n.Pods {
			if perZone[pc.Workload] == nil {
				perZone[pc.Workload] = map[string]int{}
			}
			perZone[pc.Workload][n.Zone] += pc.Count
		}
	}
	for _, sw := range md.workloads {
		if sw.w.ZoneSpread <= 0 {
			continue
		}
		lo, hi := math.MaxInt, 0
		for _, z := range md.classes[sw.class].zones {
			c := perZone[sw.w.Name][md.zones[z]]
			lo, hi = min(lo, c), max(hi, c)
		}
		if hi-lo > int(sw.w.ZoneSpread) {
			t.Errorf("%s: pods per zone %v, skew %d above its maxSkew %d", sw.w.Name, perZone[sw.w.Name], hi-lo, sw.w.ZoneSpread)
		}
	}
}

func smallSpreadInput(reqs ...karpv1.NodeSelectorRequirementWithMinValues) simmodel.SimulationInput {
	return simmodel.SimulationInput{Region: "westeurope", Seed: 42, Workloads: smallSpreadMix(),
		Pools: []simmodel.SimPool{testPool("general", 0, nil, nil, append([]karpv1.NodeSelectorRequirementWithMinValues{onDemandOnly}, reqs...)...)}}
}

// TestDiveLowersTheRepack: on the 100-pod mix, re-packing from the configuration LP with the
// dive (one node at a time, the LP solved again on what is left) is cheaper than taking the
// LP's whole patterns once and packing the rest by the greedy, and valid.
func TestDiveLowersTheRepack(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   simmodel.SimulationInput
	}{
		{"wide", smallSpreadInput()},
		{"one-family", smallSpreadInput(dFamily)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repack := func(divePods int) (float64, *simmodel.Simulation) {
				defer func(v int) { maxDivePods = v }(maxDivePods)
				maxDivePods = divePods
				md := compile(testSolver, "westeurope", tc.in)
				pk := md.repackFromLP(md.pack(0))
				return pk.cost(), md.report(pk)
			}
			without, _ := repack(0)
			with, sim := repack(maxDivePods)
			if with > without*0.98 {
				t.Errorf("re-pack with the dive USD %.4f/h, without %.4f/h: want 2 %% or more off", with, without)
			}
			checkSimulation(t, testSolver, tc.in, sim)
			checkZoneSpread(t, tc.in, sim)
		})
	}
}
