package optimal

import (
	"fmt"
	"math"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// Simulate is the optimum (Method "optimal"), not Karpenter's decision (see simulation.Predict): the
// cheapest packing it finds of the pods on nodes the NodePools can launch, with a certified
// lower bound. Pods are assigned to NodePools in Karpenter's order: each pod goes to the
// highest-weight NodePool (ties by name, descending, as Karpenter orders them) whose taints it
// tolerates, whose requirements are compatible with its own, that has an instance type it fits
// on, and whose limits leave room; pods a pool's limits leave out try the next pool. Zone
// spread divides a workload's pods evenly over the zones its NodePools offer (the bound holds
// for every split its maxSkew allows). Hostname anti-affinity on the workload's own pods and
// hostname spread cap its pods per node (1, maxSkew: simmodel.Workload.PerNode). Each node is
// priced at its cheapest offering compatible with all its pods, as Karpenter on AKS launches
// the cheapest compatible offering.
//
// Within a NodePool the pods are packed to minimise cost rather than in Karpenter's order:
// pods are taken by decreasing value (their requests priced at the LP relaxation's dual
// prices); a new node's type is the one with the lowest price per value packed when it is
// filled with its proportional share of every pending pod and topped up first-fit-decreasing;
// a final pass re-types nodes to the cheapest type that holds their pods, drains the least
// efficient nodes into the others and merges pairs onto one cheaper node. Each pool's packing
// is then compared with one built from the configuration LP (see repackFromLP) and the
// cheaper kept. Small inputs are packed in several seeded variants and, when pods are pinned
// to zones, in a second order that packs the pinned pods first (variant.pinnedFirst); each
// order's cheapest packing is re-packed, and the cheaper outcome kept and searched locally
// (localSearch: ruin and recreate of a few nodes at a time, and of the 8, 16 and 32 least
// efficient ones from the configuration LP). The result is deterministic for
// a given input and seed. When the input holds a feasible packing (Karpenter's), the result
// never costs more than it for the same pods (notAbove).
func Simulate(s *analysis.Analyzer, in simmodel.SimulationInput) (*simmodel.Simulation, error) {
	region := strings.ToLower(in.Region)
	if region == "" || !s.HasRegion(region) {
		return nil, fmt.Errorf("region %q is not in the SKU catalog", in.Region)
	}
	for i, p := range in.Pools {
		if p.Pool == nil || p.Pool.NodePool == nil {
			return nil, fmt.Errorf("pool %d is nil", i)
		}
	}
	for _, w := range in.Workloads {
		if w.Count < 0 {
			return nil, fmt.Errorf("workload %q has a negative count", w.Name)
		}
	}
	md := compile(s, region, in)
	n := variants(md)
	if n == 1 {
		// A large input is packed once and re-packed from the LP; the second order would cost
		// it time (a tenth to a third more), and the dive and the local search, which pay on a
		// few dozen nodes, more.
		pk := md.repackFromLP(md.pack(0))
		return notAbove(md.report(pk), in.Feasible), nil
	}
	// A small input is packed in n variants per order; each order's cheapest packing is
	// re-packed from the LP, the cheaper outcome kept and searched locally (searching both
	// took half as long again for the same optimum on four of the five benchmark mixes).
	orders := 1
	if md.hasPinned() {
		orders = 2
	}
	var kept *packing
	keptCost := math.Inf(1)
	for f := 0; f < orders; f++ {
		var best *packing
		bestCost := math.Inf(1)
		for v := f * n; v < (f+1)*n; v++ {
			if pk := md.pack(v); best == nil || pk.cost() < bestCost-1e-9 {
				best, bestCost = pk, pk.cost()
			}
		}
		if pk := md.repackFromLP(best); kept == nil || pk.cost() < keptCost-1e-9 {
			kept, keptCost = pk, pk.cost()
		}
	}
	kept = md.localSearch(kept)
	return notAbove(md.report(kept), in.Feasible), nil
}
