package optimal

import (
	"math"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

func (md *model) report(pk *packing) *simmodel.Simulation {
	sim := &simmodel.Simulation{Region: md.region, Method: simmodel.MethodOptimal, Currency: md.currency}
	var reqCPU, reqMem, allocCPU, allocMem float64
	share := md.attribution()
	for _, n := range pk.nodes {
		sn := md.simNode(n, share)
		sim.Nodes = append(sim.Nodes, sn)
		sim.HourlyCost += sn.HourlyPrice
		sim.PriceEstimated = sim.PriceEstimated || sn.PriceEstimated
		reqCPU += float64(sn.Requested.Cpu().MilliValue())
		reqMem += float64(sn.Requested.Memory().Value())
		allocCPU += float64(sn.Allocatable.Cpu().MilliValue())
		allocMem += float64(sn.Allocatable.Memory().Value())
		for _, pc := range sn.Pods {
			sim.ScheduledPods += pc.Count
		}
	}
	if allocCPU > 0 {
		sim.Utilisation.CPU = reqCPU / allocCPU
	}
	if allocMem > 0 {
		sim.Utilisation.Memory = reqMem / allocMem
	}
	sim.Unschedulable = md.unschedulable(pk)
	sim.LowerBound, sim.BoundGroups = md.lowerBound(pk)
	// Rounded to a millionth of a dollar; the bound downwards so that it stays a bound.
	sim.HourlyCost = analysis.RoundPrice(sim.HourlyCost)
	sim.LowerBound = math.Floor(sim.LowerBound*1e6) / 1e6
	return sim
}

// simNode picks the offering Karpenter on AKS launches among those all the node's pods allow:
// the cheapest, spot before on-demand at equal price, zonal before regional; equally good
// zones are taken in an order set by the seed (the provider shuffles them).
// attribution hands a unit's placed pods to its member workloads in order, node by node, and
// returns for each placement how many pods of each workload it holds.
func (md *model) attribution() func(pl placement) map[int]int {
	type cursor struct{ member, used int }
	cur := map[*unit]*cursor{}
	return func(pl placement) map[int]int {
		c := cur[pl.u]
		if c == nil {
			c = &cursor{}
			cur[pl.u] = c
		}
		out := map[int]int{}
		for left := pl.n; left > 0 && c.member < len(pl.u.members); {
			m := pl.u.members[c.member]
			k := min(left, m.count-c.used)
			out[m.w] += k
			left -= k
			c.used += k
			if c.used == m.count {
				c.member, c.used = c.member+1, 0
			}
		}
		return out
	}
}

func (md *model) simNode(n *simNode, share func(placement) map[int]int) simmodel.SimNode {
	pt := n.pool.types[n.t]
	best := -1
	rank := func(j int) (float64, int, int) {
		spot, regional := 1, 0
		if pt.spot[j] {
			spot = 0
		}
		zone := md.zones[pt.zone[j]]
		if zone == "0" {
			regional = 1
		}
		return pt.price[j], spot, regional
	}
	rot := func(j int) uint64 { return (uint64(pt.zone[j]) + md.seed) % uint64(len(md.zones)+1) }
	for j := range pt.offs {
		if n.mask&(1<<uint(j)) == 0 {
			continue
		}
		if best < 0 {
			best = j
			continue
		}
		pj, sj, rj := rank(j)
		pbst, sb, rb := rank(best)
		if pj < pbst || (pj == pbst && (sj < sb || (sj == sb && (rj < rb || (rj == rb && rot(j) < rot(best)))))) {
			best = j
		}
	}
	of := pt.offs[best]
	ct := of.CapacityType()
	price := analysis.PriceOf(pt.it, of)
	requested := corev1.ResourceList{}
	for d, name := range md.dims[:md.nres] {
		v := n.used[d] + n.pool.daemon[d]
		if name == corev1.ResourceCPU {
			requested[name] = *resource.NewMilliQuantity(v, resource.DecimalSI)
		} else if name == corev1.ResourceMemory {
			requested[name] = *resource.NewQuantity(v, resource.BinarySI)
		} else {
			requested[name] = *resource.NewQuantity(v, resource.DecimalSI)
		}
	}
	counts := map[int]int{}
	for _, pl := range n.place {
		for w, k := range share(pl) {
			counts[w] += k
		}
	}
	ws := make([]int, 0, len(counts))
	for w := range counts {
		ws = append(ws, w)
	}
	sort.Ints(ws)
	var pods []simmodel.PodCount
	for _, w := range ws {
		pods = append(pods, simmodel.PodCount{Workload: md.workloads[w].w.Name, Count: counts[w]})
	}
	return simmodel.SimNode{
		Pool: n.pool.name, SKU: pt.it.Name, Zone: cloud.ZoneOf(of), ZoneAssumed: cloud.ZoneAssumed(pt.it, cloud.ZoneOf(of)), CapacityType: ct,
		HourlyPrice: of.Price, Currency: money.Code(price.Currency), PriceEstimated: price.Estimated(), PriceSource: price.Source,
		Pods: pods, Requested: requested, Allocatable: pt.it.Allocatable().DeepCopy(),
	}
}

func (md *model) unschedulable(pk *packing) []simmodel.Unschedulable {
	var out []simmodel.Unschedulable
	for wi, sw := range md.workloads {
		left := 0
		var reasons []string
		seen := map[string]bool{}
		for _, u := range md.units {
			if pk.rem[u.idx] == 0 {
				continue
			}
			// Placed pods went to the members in order, so the last pods are left.
			unplaced, mine := pk.rem[u.idx], 0
			for i := len(u.members) - 1; i >= 0 && unplaced > 0; i-- {
				k := min(unplaced, u.members[i].count)
				if u.members[i].w == wi {
					mine += k
				}
				unplaced -= k
			}
			if mine == 0 {
				continue
			}
			left += mine
			for _, r := range pk.blocked[u.idx] {
				if !seen[r] {
					seen[r] = true
					reasons = append(reasons, r)
				}
			}
		}
		if left == 0 {
			continue
		}
		var reason string
		switch {
		case sw.bad != "":
			reason = sw.bad
		case len(sw.pools) == 0 && len(sw.why) == 0:
			reason = "no NodePool"
		case len(sw.pools) == 0:
			reason = strings.Join(sw.why, "; ")
		default:
			reason = strings.Join(append(reasons, sw.why...), "; ")
		}
		out = append(out, simmodel.Unschedulable{Workload: sw.w.Name, Count: left, Reason: reason})
	}
	return out
}
