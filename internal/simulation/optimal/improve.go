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
func (pk *packing) improve() {
	for _, p := range pk.md.pools {
		pk.improvePool(p)
	}
}

func (pk *packing) improvePool(p *simPool) {
	var nodes []*simNode
	for _, n := range pk.nodes {
		if n.pool == p {
			nodes = append(nodes, n)
		}
	}
	pk.improveNodes(nodes)
}

// improveNodes is improvePool on some of a pool's nodes.
func (pk *packing) improveNodes(nodes []*simNode) {
	if len(nodes) == 0 {
		return
	}
	for _, n := range nodes {
		pk.retype(n)
	}
	pk.drain(nodes)
	pk.merge(nodes)
	for _, n := range nodes {
		if !n.dead {
			pk.retype(n)
		}
	}
	live := pk.nodes[:0]
	for _, n := range pk.nodes {
		if !n.dead {
			live = append(live, n)
		}
	}
	pk.nodes = live
}

func (md *model) price(n *simNode) float64 { return cheapest(n.pool.types[n.t], n.mask) }

// hostMask is the offerings of type t that every pod of the placements allows (0: none).
func (md *model) hostMask(p *simPool, t int, places ...[]placement) uint64 {
	m := p.types[t].all
	for _, ps := range places {
		for _, pl := range ps {
			if m &= md.unitMask(pl.u, p, t); m == 0 {
				return 0
			}
		}
	}
	return m
}

// cheapestHost finds the cheapest type of the pool that holds used with the placements'
// offerings, within limits when it replaces the nodes of types old; below maxPrice only.
func (pk *packing) cheapestHost(p *simPool, used []int64, maxPrice float64, old []*poolType, places ...[]placement) (int, uint64, float64) {
	bestT, bestM, bestP := -1, uint64(0), maxPrice
	for _, t := range p.byPrice {
		pt := p.types[t]
		if pt.minPrice >= bestP {
			break
		}
		if !pt.usable || !fits(pt.alloc, nil, used, 1) {
			continue
		}
		m := pk.md.hostMask(p, t, places...)
		if m == 0 {
			continue
		}
		if !pk.allowsReplacing(p, pt, old) {
			continue
		}
		if price := cheapest(pt, m); price < bestP {
			bestT, bestM, bestP = t, m, price
		}
	}
	return bestT, bestM, bestP
}

func (pk *packing) retype(n *simNode) {
	p := n.pool
	cur := p.types[n.t]
	t, m, _ := pk.cheapestHost(p, n.used, pk.md.price(n), []*poolType{cur}, n.place)
	if t < 0 {
		return
	}
	pk.charge(p, cur, -1)
	pk.charge(p, p.types[t], 1)
	n.t, n.mask = t, m
}

// drain empties the nodes with the least value per price into the free room of the others.
func (pk *packing) drain(nodes []*simNode) {
	md := pk.md
	// The least efficient nodes are the candidates; draining one scans every other node, so
	// the candidates are capped to keep the pass linear in the number of nodes.
	order := pk.byEfficiency(nodes)
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
			d := md.workloads[pl.u.w].d
			for _, o := range nodes {
				if o == n || o.dead || left == 0 {
					continue
				}
				m, seen := masks[o]
				if !seen {
					m = o.mask
				}
				m &= md.unitMask(pl.u, o.pool, o.t)
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
			d := md.workloads[mv.u.w].d
			pk.rem[mv.u.idx] += mv.k // add takes them off rem again
			pk.add(mv.to, mv.u, mv.k, d, mv.mask)
		}
		pk.charge(n.pool, n.pool.types[n.t], -1)
		n.dead = true
		n.place = nil
	}
}

// merge replaces two lightly used nodes by one cheaper node when one type holds both.
func (pk *packing) merge(nodes []*simNode) {
	md := pk.md
	const window = 16
	for round := 0; round < window; round++ {
		cands := pk.byEfficiency(nodes)
		if len(cands) > window {
			cands = cands[:window]
		}
		bestSave, ba, bb, bt, bm := 1e-9, -1, -1, -1, uint64(0)
		used := make([]int64, len(md.dims))
		for i := 0; i < len(cands); i++ {
			for j := i + 1; j < len(cands); j++ {
				a, b := cands[i], cands[j]
				if a.pool != b.pool {
					continue
				}
				for r := range used {
					used[r] = a.used[r] + b.used[r]
				}
				both := md.price(a) + md.price(b)
				t, m, price := pk.cheapestHost(a.pool, used, both-bestSave, []*poolType{a.pool.types[a.t], b.pool.types[b.t]}, a.place, b.place)
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
		pk.charge(p, p.types[a.t], -1)
		pk.charge(p, p.types[b.t], -1)
		pk.charge(p, p.types[bt], 1)
		a.t, a.mask = bt, bm
		for _, pl := range b.place {
			pk.rem[pl.u.idx] += pl.n
			pk.add(a, pl.u, pl.n, md.workloads[pl.u.w].d, bm)
		}
		b.dead, b.place = true, nil
	}
}

// byEfficiency lists live nodes from the least packed value per price to the most.
func (pk *packing) byEfficiency(nodes []*simNode) []*simNode {
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
			v += float64(pl.n) * pk.value[pl.u.idx]
		}
		price := pk.md.price(n)
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
