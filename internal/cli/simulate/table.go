package simulate

import (
	"cmp"
	"slices"

	"github.com/Azure/karpenter-provider-azure/pkg/utils/zones"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// row is identical nodes of one pool: same instance type, capacity type and zone.
type row struct {
	InstanceType, CapacityType, Zone string
	Nodes, Pods                      int
	HourlyPrice, HourlyCost          float64
}

// poolTable is one pool's rows, in the order first launched.
type poolTable struct {
	Pool string
	Rows []row
	Cost float64
}

// tables groups a simulation's nodes per pool, pools in the order given (then any other).
func tables(sim *simmodel.Simulation, pools []string) []poolTable {
	byPool := map[string]*poolTable{}
	var order []string
	get := func(p string) *poolTable {
		if t, ok := byPool[p]; ok {
			return t
		}
		t := &poolTable{Pool: p}
		byPool[p] = t
		order = append(order, p)
		return t
	}
	for _, p := range pools {
		get(p)
	}
	for _, n := range sim.Nodes {
		t := get(n.Pool)
		pods := 0
		for _, pc := range n.Pods {
			pods += pc.Count
		}
		// A zone the catalog does not list for the size says so where it is shown.
		zone := n.Zone
		// An AKS VM placed in no zone has the zone label "0": a bare "0" in a table reads as a count.
		if zone == zones.Regional {
			zone += " (regional)"
		}
		if n.ZoneAssumed {
			zone += " (assumed)"
		}
		i := slices.IndexFunc(t.Rows, func(r row) bool {
			return r.InstanceType == n.SKU && r.CapacityType == n.CapacityType && r.Zone == zone && r.HourlyPrice == n.HourlyPrice
		})
		if i < 0 {
			t.Rows = append(t.Rows, row{InstanceType: n.SKU, CapacityType: n.CapacityType, Zone: zone, HourlyPrice: n.HourlyPrice})
			i = len(t.Rows) - 1
		}
		t.Rows[i].Nodes++
		t.Rows[i].Pods += pods
		t.Rows[i].HourlyCost += n.HourlyPrice
		t.Cost += n.HourlyPrice
	}
	out := make([]poolTable, 0, len(order))
	for _, p := range order {
		t := byPool[p]
		slices.SortStableFunc(t.Rows, func(a, b row) int {
			return cmp.Or(cmp.Compare(a.InstanceType, b.InstanceType), cmp.Compare(a.CapacityType, b.CapacityType), cmp.Compare(a.Zone, b.Zone))
		})
		out = append(out, *t)
	}
	return out
}
