package optimal

import (
	"math"
	"sort"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal/lp"
)

// improve lowers the cost of the packed nodes without moving pods across pools (a pod's pool
// is Karpenter's choice, not a cost decision): each node is re-typed to the cheapest type that
// still holds its pods, lightly used nodes are drained into the others' free room, and pairs
// of lightly used nodes are merged onto one node when that is cheaper than both.
func (pb *problem) improve() {
	for _, p := range pb.pools {
		pb.improvePool(p)
	}
}

func (pb *problem) improvePool(p *simPool) {
	var nodes []*simNode
	for _, n := range pb.nodes {
		if n.pool == p {
			nodes = append(nodes, n)
		}
	}
	pb.improveNodes(nodes)
}

// improveNodes is improvePool on some of a pool's nodes.
func (pb *problem) improveNodes(nodes []*simNode) {
	if len(nodes) == 0 {
		return
	}
	for _, n := range nodes {
		pb.retype(n)
	}
	pb.drain(nodes)
	pb.merge(nodes)
	for _, n := range nodes {
		if !n.dead {
			pb.retype(n)
		}
	}
	live := pb.nodes[:0]
	for _, n := range pb.nodes {
		if !n.dead {
			live = append(live, n)
		}
	}
	pb.nodes = live
}

func (pb *problem) price(n *simNode) float64 { return cheapest(n.pool.types[n.t], n.mask) }

// hostMask is the offerings of type t that every pod of the placements allows (0: none).
func (pb *problem) hostMask(p *simPool, t int, places ...[]placement) uint64 {
	m := p.types[t].all
	for _, ps := range places {
		for _, pl := range ps {
			if m &= pb.unitMask(pl.u, p, t); m == 0 {
				return 0
			}
		}
	}
	return m
}

// cheapestHost finds the cheapest type of the pool that holds used with the placements'
// offerings, within limits when it replaces the nodes of types old; below maxPrice only.
func (pb *problem) cheapestHost(p *simPool, used []int64, maxPrice float64, old []*poolType, places ...[]placement) (int, uint64, float64) {
	bestT, bestM, bestP := -1, uint64(0), maxPrice
	for _, t := range p.byPrice {
		pt := p.types[t]
		if pt.minPrice >= bestP {
			break
		}
		if !pt.usable || !fits(pt.alloc, nil, used, 1) {
			continue
		}
		m := pb.hostMask(p, t, places...)
		if m == 0 {
			continue
		}
		if !p.allowsReplacing(pt, old) {
			continue
		}
		if price := cheapest(pt, m); price < bestP {
			bestT, bestM, bestP = t, m, price
		}
	}
	return bestT, bestM, bestP
}

// allowsReplacing is allows for a node that takes the place of the old ones.
func (p *simPool) allowsReplacing(pt *poolType, old []*poolType) bool {
	switch len(old) {
	case 0:
		return p.allows(pt, nil)
	case 1:
		return p.allows(pt, old[0])
	}
	// Freeing several nodes: credit all of them.
	for _, o := range old[1:] {
		p.charge(o, -1)
	}
	ok := p.allows(pt, old[0])
	for _, o := range old[1:] {
		p.charge(o, 1)
	}
	return ok
}

func (pb *problem) retype(n *simNode) {
	p := n.pool
	cur := p.types[n.t]
	t, m, _ := pb.cheapestHost(p, n.used, pb.price(n), []*poolType{cur}, n.place)
	if t < 0 {
		return
	}
	p.charge(cur, -1)
	p.charge(p.types[t], 1)
	n.t, n.mask = t, m
}

// drain empties the nodes with the least value per price into the free room of the others.
func (pb *problem) drain(nodes []*simNode) {
	// The least efficient nodes are the candidates; draining one scans every other node, so
	// the candidates are capped to keep the pass linear in the number of nodes.
	order := pb.byEfficiency(nodes)
	if len(order) > 32 {
		order = order[:32]
	}
	for _, n := range order {
		if n.dead || len(n.place) == 0 {
			continue
		}
		type move struct {
			to   *simNode
			u    *unit
			k    int
			mask uint64
		}
		var moves []move
		// Trial room: the receivers' usage grows as pods are assigned; undone if any pod stays.
		trial := map[*simNode][]int64{}
		masks := map[*simNode]uint64{}
		ok := true
		for _, pl := range n.place {
			left := pl.n
			d := pb.workloads[pl.u.w].d
			for _, o := range nodes {
				if o == n || o.dead || left == 0 {
					continue
				}
				m, seen := masks[o]
				if !seen {
					m = o.mask
				}
				m &= pb.unitMask(pl.u, o.pool, o.t)
				if m == 0 {
					continue
				}
				used, seen := trial[o]
				if !seen {
					used = append([]int64(nil), o.used...)
					trial[o] = used
				}
				k := lp.MaxFit(o.pool.types[o.t].alloc, used, d, left)
				if k == 0 {
					continue
				}
				for r, x := range d {
					used[r] += x * int64(k)
				}
				masks[o] = m
				moves = append(moves, move{o, pl.u, k, m})
				left -= k
			}
			if left > 0 {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		for _, mv := range moves {
			d := pb.workloads[mv.u.w].d
			mv.u.rem += mv.k // add() takes them off rem again
			mv.to.add(mv.u, mv.k, d, mv.mask)
		}
		n.pool.charge(n.pool.types[n.t], -1)
		n.dead = true
		n.place = nil
	}
}

// merge replaces two lightly used nodes by one cheaper node when one type holds both.
func (pb *problem) merge(nodes []*simNode) {
	const window = 16
	for round := 0; round < window; round++ {
		cands := pb.byEfficiency(nodes)
		if len(cands) > window {
			cands = cands[:window]
		}
		bestSave, ba, bb, bt, bm := 1e-9, -1, -1, -1, uint64(0)
		used := make([]int64, len(pb.dims))
		for i := 0; i < len(cands); i++ {
			for j := i + 1; j < len(cands); j++ {
				a, b := cands[i], cands[j]
				if a.pool != b.pool {
					continue
				}
				for r := range used {
					used[r] = a.used[r] + b.used[r]
				}
				both := pb.price(a) + pb.price(b)
				t, m, price := pb.cheapestHost(a.pool, used, both-bestSave, []*poolType{a.pool.types[a.t], b.pool.types[b.t]}, a.place, b.place)
				if t >= 0 && both-price > bestSave {
					bestSave, ba, bb, bt, bm = both-price, i, j, t, m
				}
			}
		}
		if ba < 0 {
			return
		}
		a, b := cands[ba], cands[bb]
		p := a.pool
		p.charge(p.types[a.t], -1)
		p.charge(p.types[b.t], -1)
		p.charge(p.types[bt], 1)
		a.t, a.mask = bt, bm
		for _, pl := range b.place {
			pl.u.rem += pl.n
			a.add(pl.u, pl.n, pb.workloads[pl.u.w].d, bm)
		}
		b.dead, b.place = true, nil
	}
}

// byEfficiency lists live nodes from the least packed value per price to the most.
func (pb *problem) byEfficiency(nodes []*simNode) []*simNode {
	type scored struct {
		n *simNode
		e float64
	}
	var s []scored
	for _, n := range nodes {
		if n.dead {
			continue
		}
		var v float64
		for _, pl := range n.place {
			v += float64(pl.n) * pl.u.value
		}
		price := pb.price(n)
		e := math.Inf(1)
		if price > 0 {
			e = v / price
		}
		s = append(s, scored{n, e})
	}
	sort.SliceStable(s, func(i, j int) bool { return s[i].e < s[j].e })
	out := make([]*simNode, len(s))
	for i := range s {
		out[i] = s[i].n
	}
	return out
}
