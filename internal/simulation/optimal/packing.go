package optimal

import (
	"slices"

	"sigs.k8s.io/karpenter/pkg/utils/resources"
)

// packing is one packing of the model's pods: its nodes, each unit's pods still pending and
// why, what remains of each pool's limits, and the variant that packs it. The packing steps
// (pack, repack, improve, localSearch) take a packing and change or replace it; the model
// stays as compile left it, so two packings of one model never share state.
type packing struct {
	md    *model
	nodes []*simNode
	// Per unit (model.units): pods pending, the position in its workload's pools list to try
	// next, why the pools tried could not take the rest.
	rem      []int
	nextPool []int
	blocked  [][]string
	reason   []string // why the current pool could not take the rest
	// value is each unit's pod value in the last packer that packed it (see newPacker).
	value []float64
	// remaining is, per pool and limit (simPool.limits), what the nodes leave of it.
	remaining [][]int64
	variant   variant
}

// newPacking is the empty packing: every pod pending, every limit untouched, no nodes.
func (md *model) newPacking() *packing {
	pk := &packing{md: md, rem: make([]int, len(md.units)), nextPool: make([]int, len(md.units)), blocked: make([][]string, len(md.units)),
		reason: make([]string, len(md.units)), value: make([]float64, len(md.units)), remaining: make([][]int64, len(md.pools))}
	for i, u := range md.units {
		pk.rem[i] = u.count
	}
	for i, p := range md.pools {
		pk.remaining[i] = make([]int64, len(p.limits))
		for j, l := range p.limits {
			pk.remaining[i][j] = l.limit
		}
	}
	return pk
}

// clone is a copy of the packing that shares nothing mutable with it (the variant's random
// source aside, which only the packing being packed draws from).
func (pk *packing) clone() *packing {
	c := *pk
	c.nodes = make([]*simNode, len(pk.nodes))
	for i, n := range pk.nodes {
		c.nodes[i] = n.clone()
	}
	c.rem, c.nextPool, c.reason, c.value = slices.Clone(pk.rem), slices.Clone(pk.nextPool), slices.Clone(pk.reason), slices.Clone(pk.value)
	c.blocked = make([][]string, len(pk.blocked))
	for i, b := range pk.blocked {
		c.blocked[i] = slices.Clone(b)
	}
	c.remaining = make([][]int64, len(pk.remaining))
	for i, r := range pk.remaining {
		c.remaining[i] = slices.Clone(r)
	}
	return &c
}

func (n *simNode) clone() *simNode {
	c := *n
	c.used = slices.Clone(n.used)
	c.place = slices.Clone(n.place)
	return &c
}

// placed is how many of u's pods the packing has placed.
func (pk *packing) placed(u *unit) int { return u.count - pk.rem[u.idx] }

func (pk *packing) cost() float64 {
	var c float64
	for _, n := range pk.nodes {
		c += pk.md.price(n)
	}
	// Pods left unscheduled weigh more than any node: a run that places more pods wins.
	for _, r := range pk.rem {
		c += float64(r) * 1e6
	}
	return c
}

// allows reports whether launching a node of type pt in pool p (in place of the node of type
// old, if any) stays within the pool's limits, judged as Karpenter's
// filterByRemainingResources does: the node's capacity may not exceed what remains of any
// limited resource.
func (pk *packing) allows(p *simPool, pt, old *poolType) bool {
	for i, l := range p.limits {
		free := pk.remaining[p.idx][i]
		if old != nil {
			free += old.capLimit[i]
		}
		if l.name == resources.Node {
			if free < 1 {
				return false
			}
			continue
		}
		if pt.capLimit[i] > free {
			return false
		}
	}
	return true
}

// allowsReplacing is allows for a node that takes the place of the old ones.
func (pk *packing) allowsReplacing(p *simPool, pt *poolType, old []*poolType) bool {
	switch len(old) {
	case 0:
		return pk.allows(p, pt, nil)
	case 1:
		return pk.allows(p, pt, old[0])
	}
	// Freeing several nodes: credit all of them.
	for _, o := range old[1:] {
		pk.charge(p, o, -1)
	}
	ok := pk.allows(p, pt, old[0])
	for _, o := range old[1:] {
		pk.charge(p, o, 1)
	}
	return ok
}

// charge counts a node of type pt of pool p against the pool's limits (sign 1) or frees it
// (sign −1).
func (pk *packing) charge(p *simPool, pt *poolType, sign int64) {
	for i := range p.limits {
		pk.remaining[p.idx][i] -= sign * pt.capLimit[i]
	}
}
