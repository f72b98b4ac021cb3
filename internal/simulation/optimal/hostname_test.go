package optimal

import (
	"math"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// TestHostnameCaps: a workload with required hostname anti-affinity on itself gets one pod per
// node, and one with a hostname spread of maxSkew k at most k per node (Karpenter takes the
// minimum over hostnames as 0, since it can always open a node), however small its pods; other
// pods still share those nodes. The bounds know it: at least pods ÷ cap nodes of the workload.
func TestHostnameCaps(t *testing.T) {
	d4 := testPool("d", 0, nil, nil, onDemandOnly, sizes("Standard_D2s_v5", "Standard_D4s_v5", "Standard_D8s_v5"))
	for _, tc := range []struct {
		name      string
		anti      bool
		skew      int32
		wantNodes int
	}{
		{"anti-affinity", true, 0, 6},
		{"hostname spread 2", false, 2, 3},
		{"hostname spread 4", false, 4, 2},
		{"both", true, 3, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ha := pods("ha", 6, "100m", "128Mi")
			ha.HostnameAntiAffinity, ha.HostnameSpread = tc.anti, tc.skew
			in := simmodel.SimulationInput{Pools: []simmodel.SimPool{d4}, Workloads: []simmodel.Workload{ha, pods("bulk", 12, "500m", "1Gi")}}
			for _, config := range []bool{false, true} {
				in.ConfigurationBound = config
				sim := simulate(t, in) // checkSimulation checks every node's count of ha pods
				perNode := map[int]int{}
				for i, n := range sim.Nodes {
					for _, pc := range n.Pods {
						if pc.Workload == "ha" {
							perNode[i] += pc.Count
						}
					}
				}
				if len(perNode) < tc.wantNodes {
					t.Errorf("ha pods on %d nodes (%v), want at least %d", len(perNode), perNode, tc.wantNodes)
				}
				// Every node holding ha pods costs at least a D2s_v5 ($0.115/h in westeurope):
				// the bound must see the nodes the cap forces, which a resource bound does not
				// (6 × 100m fits one node).
				if min := float64(tc.wantNodes) * 0.115; sim.LowerBound < min-1e-6 {
					t.Errorf("config %v: bound %v below the %d nodes the cap forces ($%v)", config, sim.LowerBound, tc.wantNodes, min)
				}
				if sim.LowerBound > sim.HourlyCost+1e-9 {
					t.Errorf("bound %v above the cost %v", sim.LowerBound, sim.HourlyCost)
				}
			}
		})
	}
}

// TestHostnameCapWithZoneSpread: anti-affinity and a zone spread together: one pod per node,
// the pods over the zones within maxSkew, and the bound at least a node per pod.
func TestHostnameCapWithZoneSpread(t *testing.T) {
	w := pods("ha", 7, "250m", "256Mi")
	w.HostnameAntiAffinity, w.ZoneSpread = true, 1
	sim := simulate(t, simmodel.SimulationInput{
		Pools:     []simmodel.SimPool{testPool("d", 0, nil, nil, onDemandOnly, sizes("Standard_D2s_v5", "Standard_D4s_v5"))},
		Workloads: []simmodel.Workload{w},
	})
	perZone := map[string]int{}
	for _, n := range sim.Nodes {
		for _, pc := range n.Pods {
			perZone[n.Zone] += pc.Count
		}
	}
	lo, hi := math.MaxInt, 0
	for _, c := range perZone {
		lo, hi = min(lo, c), max(hi, c)
	}
	if len(sim.Nodes) != 7 || len(perZone) != 4 || hi-lo > 1 {
		t.Errorf("%d nodes, pods per zone %v: want 7 nodes over 4 zones within maxSkew 1", len(sim.Nodes), perZone)
	}
	if sim.LowerBound < 7*0.115-1e-6 {
		t.Errorf("bound %v below 7 × $0.115", sim.LowerBound)
	}
}
