package optimal

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

func zonesIn(zones ...string) karpv1.NodeSelectorRequirementWithMinValues {
	return karpv1.NodeSelectorRequirementWithMinValues{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: zones}
}

// TestOptimumKeepsThePoolsZones: a westeurope pool pinned to westeurope-1, on sizes the catalog
// has no Resource SKUs listing of there (all of westeurope's), gets nodes, every one in
// westeurope-1 (issue 18: the optimum placed them in zone "0", the regional placement the pool
// excludes). A spread workload on a pool of two zones is divided over those two only.
func TestOptimumKeepsThePoolsZones(t *testing.T) {
	sim := simulate(t, simmodel.SimulationInput{
		Pools:     []simmodel.SimPool{testPool("pinned", 0, nil, nil, onDemandOnly, zonesIn("westeurope-1"), sizes("Standard_D4s_v5", "Standard_D8s_v5"))},
		Workloads: []simmodel.Workload{pods("web", 6, "1", "1Gi")},
	})
	if len(sim.Nodes) == 0 || sim.ScheduledPods != 6 {
		t.Fatalf("%d nodes, %d pods scheduled, unschedulable %+v; want every pod on westeurope-1", len(sim.Nodes), sim.ScheduledPods, sim.Unschedulable)
	}
	for _, n := range sim.Nodes {
		if n.Zone != "westeurope-1" {
			t.Errorf("node %s in zone %q, want westeurope-1", n.SKU, n.Zone)
		}
	}

	spread := pods("spread", 6, "1", "1Gi")
	spread.ZoneSpread = 1
	sim = simulate(t, simmodel.SimulationInput{
		Pools:     []simmodel.SimPool{testPool("two", 0, nil, nil, onDemandOnly, zonesIn("westeurope-1", "westeurope-3"), sizes("Standard_D4s_v5"))},
		Workloads: []simmodel.Workload{spread},
	})
	perZone := map[string]int{}
	for _, n := range sim.Nodes {
		for _, pc := range n.Pods {
			perZone[n.Zone] += pc.Count
		}
	}
	if len(perZone) != 2 || perZone["westeurope-1"] != 3 || perZone["westeurope-3"] != 3 {
		t.Errorf("spread pods per zone %v, want 3 in each of westeurope-1 and westeurope-3", perZone)
	}
}
