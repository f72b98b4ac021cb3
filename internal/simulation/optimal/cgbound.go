package optimal

import (
	"fmt"
	"math"
	"slices"
)

// configurationBound is the configuration LP bound on the cost of the scheduled pods: a variable per
// node pattern (an offering and how many pods of each group one node of it holds), covering
// every group's pods, within the pool limits:
//
//	minimise Σ price_p·x_p  s.t.  Σ_p a_gp·x_p ≥ pods_g,  Σ_p cap_lp·x_p ≤ limit_l,  x ≥ 0.
//
// Unlike a relaxation over resources, a pattern's pods must fit on its node together, so the
// bound does not cover cpu with one size and memory with another. There are too many
// patterns to list, so they are generated: the master problem is solved over the patterns
// found so far, and its dual prices ask each offering for its most valuable pattern (a
// knapsack). The result is certified whatever the search reached: the duals, scaled until no
// pattern of any offering can violate its dual constraint (checked against an upper bound on
// every knapsack), are a feasible solution of the dual, whose value bounds every placement.
//
// The master starts from the groups alone (startBasis), not from the packing's nodes: where the
// budget stops the search, the bound would otherwise depend on the packing found, and two
// packings of the same pods must get the same bound.
func (md *model) configurationBound(groups []*boundGroup, cols []boundColumn) float64 {
	budget := defaultCGBudget
	cg := md.patternLP(groups, cols, md.pools)
	if cg == nil {
		return 0
	}
	if err := cg.run(budget, true); err != nil {
		return 0
	}
	return cg.certify(budget)
}

// certify returns the value of the master's dual prices scaled into the dual of the full
// configuration LP: for each offering, an upper bound U on its most valuable pattern (the
// LP relaxation, the search, or the rounded-down dynamic program, whichever is lowest) must
// satisfy θ·(U − μ·caps) ≤ price.
func (cg *columnGeneration) certify(budget cgBudget) float64 {
	pi, mu := cg.prices()
	theta := 1.0
	for j, o := range cg.offers {
		ks := cg.knapsack(j, pi)
		if ks == nil {
			continue
		}
		target := cg.target(j, mu)
		want := target * (1 + cgTolerance)
		upper := ks.Relaxation(0, ks.Capacity())
		if upper > want {
			ks.SolveLP()
			upper = math.Min(upper, ks.Relaxation(0, ks.Capacity()))
		}
		if upper > want {
			_, _, u := ks.Solve(want, budget.nodes)
			upper = math.Min(upper, u)
		}
		if upper > want {
			_, u := ks.Grid(budget.cells, false)
			upper = math.Min(upper, u)
		}
		if excess := upper - (target - o.price); excess > o.price {
			theta = math.Min(theta, o.price/excess)
		}
	}
	var v float64
	for g, gr := range cg.groups {
		v += pi[g] * float64(gr.pods)
	}
	for _, m := range mu {
		v -= m
	}
	return math.Max(0, theta*v*(1-1e-9))
}

// patternLP is the configuration LP of the groups over the columns (of pools), or, when it has
// more than maxPatternGroups groups and some are pinned to a zone, its zone relaxation (see
// zoneRelaxed). nil when neither fits.
func (md *model) patternLP(groups []*boundGroup, cols []boundColumn, pools []*simPool) *columnGeneration {
	if cg := md.newColumnGeneration(groups, cols); cg != nil {
		return cg
	}
	if free, pinned := md.zoneRelaxed(groups); pinned {
		return md.newColumnGeneration(free, md.boundColumns(free, pools))
	}
	return nil
}

// zoneRelaxed is the groups with their zone pins dropped: each may use its offerings in any
// zone, so that the zone copies of a spread workload's pods become one group of the
// configuration LP again (newColumnGeneration merges groups of equal requests and offerings).
// A zone spread over Z zones makes Z groups of each spread shape, which on the benchmark's
// mixes (a third of the workloads spread over westeurope's four zones) takes the LP past
// maxPatternGroups, where it stayed before zones were assumed: the packing and the
// configuration bound then fell back to the greedy and the node-type LP. The relaxation
// admits every placement the zones admit, so its bound is still a bound. pinned is false when
// no group is pinned (the relaxation is the problem itself).
//
// Relaxed groups of one class and requests may use the same offerings, so they are merged
// here already, in the order of their first group, as newColumnGeneration would merge them:
// the columns are then found for a fifth of the groups on the benchmark's spread mixes, and
// the configuration LP is the same.
func (md *model) zoneRelaxed(groups []*boundGroup) (free []*boundGroup, pinned bool) {
	byShape := map[string]*boundGroup{}
	for _, g := range groups {
		pinned = pinned || g.zone >= 0
		key := fmt.Sprint(g.class, "/", md.workloads[g.u.w].d)
		if m := byShape[key]; m != nil {
			m.from = append(m.from, g.from...)
			m.pods += g.pods
			m.cover += g.pods
			for d, v := range g.demand {
				m.demand[d] += v
			}
			continue
		}
		c := *g
		c.zone = -1
		c.from = slices.Clone(g.from)
		c.demand = slices.Clone(g.demand)
		c.cover = g.pods
		byShape[key] = &c
		free = append(free, &c)
	}
	return free, pinned
}
