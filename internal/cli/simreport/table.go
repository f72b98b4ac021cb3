package simreport

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/Azure/karpenter-provider-azure/pkg/utils/zones"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// Row is identical nodes of one pool: same instance type, capacity type and zone.
type Row struct {
	InstanceType, CapacityType, Zone string
	Nodes, Pods                      int
	HourlyPrice, HourlyCost          float64
}

// PoolTable is one pool's rows, in the order first launched.
type PoolTable struct {
	Pool string
	Rows []Row
	Cost float64
}

// Tables groups a simulation's nodes per pool, pools in the order given (then any other).
func Tables(sim *simmodel.Simulation, pools []string) []PoolTable {
	byPool := map[string]*PoolTable{}
	var order []string
	get := func(p string) *PoolTable {
		if t, ok := byPool[p]; ok {
			return t
		}
		t := &PoolTable{Pool: p}
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
		i := slices.IndexFunc(t.Rows, func(r Row) bool {
			return r.InstanceType == n.SKU && r.CapacityType == n.CapacityType && r.Zone == zone && r.HourlyPrice == n.HourlyPrice
		})
		if i < 0 {
			t.Rows = append(t.Rows, Row{InstanceType: n.SKU, CapacityType: n.CapacityType, Zone: zone, HourlyPrice: n.HourlyPrice})
			i = len(t.Rows) - 1
		}
		t.Rows[i].Nodes++
		t.Rows[i].Pods += pods
		t.Rows[i].HourlyCost += n.HourlyPrice
		t.Cost += n.HourlyPrice
	}
	out := make([]PoolTable, 0, len(order))
	for _, p := range order {
		t := byPool[p]
		slices.SortStableFunc(t.Rows, func(a, b Row) int {
			return cmp.Or(cmp.Compare(a.InstanceType, b.InstanceType), cmp.Compare(a.CapacityType, b.CapacityType), cmp.Compare(a.Zone, b.Zone))
		})
		out = append(out, *t)
	}
	return out
}

// WriteTables is one table of nodes per pool; suffix follows the pool's name.
func WriteTables(b *strings.Builder, sim *simmodel.Simulation, pools []string, cur, suffix string) {
	for _, t := range Tables(sim, pools) {
		fmt.Fprintf(b, "\n  NodePool %s%s: %s\n", t.Pool, suffix, money.Hourly(cur, simulation.Round(t.Cost)))
		if len(t.Rows) == 0 {
			b.WriteString("    no nodes\n")
			continue
		}
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "    INSTANCE TYPE\tCAPACITY\tZONE\tNODES\tPODS\t%[1]s/H EACH\t%[1]s/H\n", cur)
		for _, row := range t.Rows {
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%d\t%d\t%.4f\t%.4f\n", row.InstanceType, row.CapacityType, row.Zone, row.Nodes, row.Pods, row.HourlyPrice, simulation.Round(row.HourlyCost))
		}
		_ = tw.Flush()
	}
}
