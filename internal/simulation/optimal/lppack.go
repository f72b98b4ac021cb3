package optimal

import (
	"fmt"
	"math"
	"slices"
)

// lpPackBudget is the column generation run for packing: patterns found by rounding only, and
// few rounds; the packing needs a good fractional solution, not a proof.
var lpPackBudget = cgBudget{iterations: 20, pivots: 5000, columns: 50}

// repackFromLP re-packs each pool's pods from the configuration LP: whole copies of the
// patterns of its fractional optimum become nodes (the LP mixes node types and pod shapes in
// the proportions that cost least, which a node-by-node greedy does not see), the pods the
// rounding leaves are packed by the greedy into their free room and new nodes, and the
// result replaces the pool's nodes when it is cheaper. On small inputs the re-pack is then
// tried again with the dive placing what the whole patterns leave (the LP of what is left,
// rounded again, one node at a time) before the greedy. Pods stay in their pool: which pool a
// pod goes to is Karpenter's order, not a cost decision.
//
// When pods are pinned to zones (zone spread), the re-pack is tried a second time from the
// zone relaxation (zoneRelaxed), whose patterns mix the zones' pods and are put in one zone
// per node by roundDown, and the cheaper packing is kept: the relaxation is the only one
// within maxPatternGroups on most spread mixes, and on small ones, where the zoned LP fits,
// its whole patterns are fewer (each zone's pods are a fraction of a node) and its re-pack
// rarely beats the greedy. Pools with more than maxPatternGroups pod groups in both keep the
// greedy's nodes. It takes pk over and returns the packing re-packed.
func (md *model) repackFromLP(pk *packing) *packing {
	for _, p := range md.pools {
		// The dive's pass comes after the plain one, so that it can only lower what the plain
		// re-pack reached (it does not always do better).
		for _, dive := range []bool{false, true} {
			for _, relax := range []bool{false, true} {
				var old []*simNode
				placed := map[*unit]int{}
				pods := 0
				for _, n := range pk.nodes {
					if n.pool == p {
						old = append(old, n)
						for _, pl := range n.place {
							placed[pl.u] += pl.n
							pods += pl.n
						}
					}
				}
				if len(old) < 2 || dive && (pods > maxDivePods || variants(md) == 1) {
					break
				}
				if !pk.tryRepack(p, old, placed, relax, dive) {
					break
				}
			}
		}
	}
	return pk
}

// tryRepack re-packs pool p from the configuration LP of its pods (zone-relaxed with relax;
// the rest placed by the dive first with dive) and keeps the result when it is cheaper than
// old. It returns false when the pods have no zone pins, so that the relaxation, the same LP,
// is not tried again.
func (pk *packing) tryRepack(p *simPool, old []*simNode, placed map[*unit]int, relax, dive bool) bool {
	md := pk.md
	var groups []*boundGroup
	var items []*unit
	for _, u := range md.units { // the units' order keeps the result deterministic
		if k := placed[u]; k > 0 {
			groups = append(groups, md.boundGroup(u, k))
			items = append(items, u)
		}
	}
	free, pinned := md.zoneRelaxed(groups)
	if relax {
		if !pinned {
			return false
		}
		groups = free
	} else if md.overPatternGroups(groups) {
		return pinned // newColumnGeneration would merge them and give up: skip its columns
	}
	cg := md.newColumnGeneration(groups, md.boundColumns(groups, []*simPool{p}))
	if cg == nil {
		return pinned
	}
	cg.seed(old)
	if err := cg.run(lpPackBudget, false); err != nil {
		return pinned
	}
	oldCost := 0.0
	for _, n := range old {
		oldCost += md.price(n)
	}
	// Take the pool's pods and limits back, keeping what else is pending.
	saved := make([]int, len(items))
	for i, u := range items {
		saved[i] = pk.rem[u.idx]
		pk.rem[u.idx] = placed[u]
	}
	savedLimits := slices.Clone(pk.remaining[p.idx])
	for i, l := range p.limits {
		pk.remaining[p.idx][i] = l.limit
	}
	others := pk.nodes[:0:0]
	for _, n := range pk.nodes {
		if n.pool != p {
			others = append(others, n)
		}
	}
	nodes := cg.roundDown(pk, p)
	if dive {
		nodes = append(nodes, pk.dive(p, items, relax)...)
	}
	pk.nodes = append(others, nodes...)
	ok := pk.packOnto(p, items, nodes)
	newCost := 0.0
	for _, n := range pk.nodes {
		if n.pool == p {
			newCost += md.price(n)
		}
	}
	if ok && newCost < oldCost-1e-9 {
		for i, u := range items {
			pk.rem[u.idx] = saved[i]
		}
		return pinned
	}
	// Keep the greedy's nodes.
	for i, u := range items {
		pk.rem[u.idx] = saved[i]
	}
	copy(pk.remaining[p.idx], savedLimits)
	pk.nodes = append(others, old...)
	return pinned
}

// dive packs the pods roundDown left (small pools only) from the configuration LP of what is
// left, again and again: each round's whole patterns become nodes, or, when every pattern's
// value is below 1, one node of the pattern with the largest value, until no pod is left or
// the LP cannot be built. Rounding the fractional solution one node at a time and solving
// again keeps the LP's mix where taking its whole patterns once and packing the rest by the
// greedy does not.
func (pk *packing) dive(p *simPool, items []*unit, relax bool) []*simNode {
	return pk.diveWith(p, items, relax, lpPackBudget)
}

func (pk *packing) diveWith(p *simPool, items []*unit, relax bool, budget cgBudget) []*simNode {
	md := pk.md
	var out []*simNode
	for round := 0; round < maxDiveRounds; round++ {
		var groups []*boundGroup
		for _, u := range items {
			if r := pk.rem[u.idx]; r > 0 {
				groups = append(groups, md.boundGroup(u, r))
			}
		}
		if len(groups) == 0 {
			break
		}
		if relax {
			groups, _ = md.zoneRelaxed(groups)
		}
		cg := md.newColumnGeneration(groups, md.boundColumns(groups, []*simPool{p}))
		if cg == nil || cg.run(budget, false) != nil {
			break
		}
		nodes := cg.roundDown(pk, p)
		if len(nodes) == 0 {
			n := cg.roundUp(pk, p)
			if n == nil {
				break
			}
			nodes = append(nodes, n)
		}
		out = append(out, nodes...)
	}
	return out
}

// roundDown turns the whole part of each pattern's value in the master's solution into
// nodes, handing each pattern's group counts to the group's units, and charges them to the
// pool's limits (which the LP kept to, so the whole parts do too). A group of the zone
// relaxation (see patternLP) holds units pinned to different zones, and a node can be in one
// zone only: each copy is put in the zone where the pattern's groups have the most pods left
// (pinned there or unpinned), and takes the pods pinned there before the unpinned ones, which
// can still go anywhere.
func (cg *columnGeneration) roundDown(pk *packing, p *simPool) []*simNode {
	unitsOf := cg.unitsOf()
	var nodes []*simNode
	for i, j := range cg.lp.Basis() {
		pat, ok := cg.patterns[j]
		if !ok {
			continue
		}
		for c := int(math.Floor(cg.lp.BasicValues()[i] + 1e-9)); c > 0; c-- {
			n := cg.node(pk, p, pat, unitsOf)
			if n == nil {
				break
			}
			nodes = append(nodes, n)
		}
	}
	return nodes
}

// roundUp is roundDown's step when every pattern's value is below 1: one node of the pattern
// with the largest value in the master's solution, nil when none places a pod.
func (cg *columnGeneration) roundUp(pk *packing, p *simPool) *simNode {
	unitsOf := cg.unitsOf()
	best, bestV := cgPattern{offer: -1}, 1e-6
	for i, j := range cg.lp.Basis() {
		if pat, ok := cg.patterns[j]; ok && cg.lp.BasicValues()[i] > bestV {
			best, bestV = pat, cg.lp.BasicValues()[i]
		}
	}
	if best.offer < 0 {
		return nil
	}
	return cg.node(pk, p, best, unitsOf)
}

func (cg *columnGeneration) unitsOf() [][]*unit {
	unitsOf := make([][]*unit, len(cg.groups))
	for _, u := range cg.md.units {
		if g, ok := cg.groupOf[u]; ok {
			unitsOf[g] = append(unitsOf[g], u)
		}
	}
	return unitsOf
}

// node makes one copy of the pattern a node with the pods its groups' units have left, charged
// to the pool's limits; nil when the limits do not allow it or it would hold no pod.
func (cg *columnGeneration) node(pk *packing, p *simPool, pat cgPattern, unitsOf [][]*unit) *simNode {
	o := cg.offers[pat.offer]
	pt := p.types[o.t]
	if !pk.allows(p, pt, nil) {
		return nil
	}
	n := &simNode{pool: p, t: o.t, mask: cg.copyZone(pk, p, pat, unitsOf), used: make([]int64, len(cg.md.dims))}
	for m, k := range pat.take {
		g := o.members[m]
		d := cg.groups[g].d
		for _, pinned := range []bool{true, false} {
			for _, u := range unitsOf[g] {
				if k == 0 {
					break
				}
				if take := min(k, pk.rem[u.idx]); take > 0 && (u.zone >= 0) == pinned {
					mask := n.mask & cg.md.unitMask(u, p, o.t)
					if mask == 0 || !fits(pt.alloc, n.used, d, int64(take)) {
						continue
					}
					pk.add(n, u, take, d, mask)
					k -= take
				}
			}
		}
	}
	if len(n.place) == 0 {
		return nil
	}
	pk.charge(p, pt, 1)
	return n
}

// copyZone is the offerings a new copy of the pattern may use: those of the zone where its
// groups' units, pinned there or unpinned, have the most of the pattern's pods left; all of
// the type's when none of its units is pinned to a zone.
func (cg *columnGeneration) copyZone(pk *packing, p *simPool, pat cgPattern, unitsOf [][]*unit) uint64 {
	o := cg.offers[pat.offer]
	pt := p.types[o.t]
	pinned := false
	for m, k := range pat.take {
		for _, u := range unitsOf[o.members[m]] {
			pinned = pinned || (k > 0 && u.zone >= 0 && pk.rem[u.idx] > 0)
		}
	}
	if !pinned {
		return pt.all
	}
	best, bestPods := pt.all, -1
	for z, zm := range pt.zoneMask {
		if zm == 0 {
			continue
		}
		pods := 0
		for m, k := range pat.take {
			left := 0
			for _, u := range unitsOf[o.members[m]] {
				if (u.zone < 0 || u.zone == z) && cg.md.unitMask(u, p, o.t)&zm != 0 {
					left += pk.rem[u.idx]
				}
			}
			pods += min(k, left)
		}
		if pods > bestPods {
			best, bestPods = zm, pods
		}
	}
	return best
}

// overPatternGroups reports whether the configuration LP of the groups certainly has more than
// maxPatternGroups groups once newColumnGeneration merges those of equal requests and
// offerings: groups of different requests never merge, and groups of equal requests pinned to
// different zones neither (their offerings are in their own zones, and each placed group has
// one), so per request vector there are at least as many as its zones (at least one). On the
// benchmark's spread mixes the zoned LP is past the cap and only its relaxation runs; this
// spares the zoned LP's columns, the costliest part of finding that out.
func (md *model) overPatternGroups(groups []*boundGroup) bool {
	zones := map[string]map[int]bool{}
	for _, g := range groups {
		k := fmt.Sprint(md.workloads[g.u.w].d)
		if zones[k] == nil {
			zones[k] = map[int]bool{}
		}
		if g.zone >= 0 {
			zones[k][g.zone] = true
		}
	}
	n := 0
	for _, z := range zones {
		n += max(len(z), 1)
	}
	return n > maxPatternGroups
}

// maxDivePods is the most pods a pool may hold for the re-pack's dive, which runs on small
// inputs only (packed in several variants: see Simulate): each of its rounds
// lists the pool's columns and solves a configuration LP, a few milliseconds on a hundred
// pods; on a thousand the first rounding places most pods and the dive's rounds, many and
// slower, rarely pay.
var maxDivePods = 300

// maxDiveRounds caps the dive's LPs (each places at least one node).
const maxDiveRounds = 200

// packOnto packs what is left of items onto the pool's nodes (already in pk.nodes) and new
// ones, and, when every pod of items is placed, improves the pool (re-typed, drained, merged).
// It reports whether every pod was placed; the caller keeps or undoes the result.
func (pk *packing) packOnto(p *simPool, items []*unit, nodes []*simNode) bool {
	pr := pk.newPacker(p, slices.Clone(items)) // it sorts them
	pr.nodes = nodes
	pr.run()
	for _, u := range items {
		if pk.rem[u.idx] != 0 {
			return false
		}
	}
	pk.improvePool(p)
	return true
}
