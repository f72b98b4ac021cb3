package optimal

import (
	"math/rand/v2"
	"slices"
	"sort"
)

// maxLocalNodes is the largest pool (in nodes) the local search runs on. On small inputs one
// partly used node is several percent of the cost and the greedy's order of decisions matters
// most; each trial re-packs a few nodes, so the search costs a few milliseconds there.
const maxLocalNodes = 48

// maxLocalPods is the most pods a pool may hold for the local search with the whole pool
// improved after each trial: a trial's packer and improvement pass cost time in proportion
// to the pool's pods and nodes.
const maxLocalPods = 300

// maxScopedNodes and maxScopedPods bound the pools searched with each trial's improvement
// scoped to the nodes it touched (see ruinRecreate): the 1,000-pod inputs, not 5,000-pod
// ones (which Simulate packs once and does not search).
const (
	maxScopedNodes = 200
	maxScopedPods  = 1500
)

// localTrials caps the search's re-packs per pool by the packer after its systematic moves,
// lpTrials those from the configuration LP after them (each solves a few LPs: see dive).
const (
	localTrials = 160
	lpTrials    = 12
)

// lpLocalBudget is the column generation of a re-pack of a few nodes from the LP: half the
// re-pack's rounds, which a few nodes' pods rarely need.
var lpLocalBudget = cgBudget{iterations: 10, pivots: lpPackBudget.pivots, columns: lpPackBudget.columns}

// localSearch lowers the cost of small pools by ruin and recreate: the pods of a few nodes are
// taken off, put into the free room of the pool's other nodes and onto new nodes by the
// packer, the pool is improved (re-typed, drained, merged), and the result is kept when it is
// cheaper. Every trial keeps what the packer keeps (offerings per zone, hostname caps as
// dimensions, the pool's limits, its daemon overhead), and pods stay in their pool and their
// zone. Candidates: each node alone, each pair of the least efficient nodes, the nodes of each
// zone, the 8, 16 and 32 least efficient nodes (lpRuins), then seeded random sets; the
// packing's order is varied (pinned pods first, jitter). Every step has a fixed count of
// trials, not a time limit, so the result does not depend on the machine.
// It takes pk over and returns the packing searched.
func (md *model) localSearch(pk *packing) *packing {
	if variants(md) == 1 {
		return pk // a large input (see Simulate)
	}
	saved := pk.variant
	for _, p := range md.pools {
		pk.localSearchPool(p)
	}
	pk.variant = saved
	return pk
}

func (pk *packing) poolNodes(p *simPool) []*simNode {
	var out []*simNode
	for _, n := range pk.nodes {
		if n.pool == p && !n.dead {
			out = append(out, n)
		}
	}
	return out
}

func (pk *packing) poolCost(p *simPool) float64 {
	c := 0.0
	for _, n := range pk.nodes {
		if n.pool == p && !n.dead {
			c += pk.md.price(n)
		}
	}
	return c
}

func (pk *packing) localSearchPool(p *simPool) {
	md := pk.md
	nodes := pk.poolNodes(p)
	if len(nodes) < 2 || len(nodes) > maxScopedNodes {
		return
	}
	pods := 0
	for _, n := range nodes {
		for _, pl := range n.place {
			pods += pl.n
		}
	}
	if pods > maxScopedPods {
		return
	}
	// A pool past maxLocalNodes or maxLocalPods is searched too, but each trial improves only
	// the nodes it touched: improving the whole pool after every trial is what makes a trial's
	// cost grow with the pool.
	scoped := len(nodes) > maxLocalNodes || pods > maxLocalPods
	rng := rand.New(rand.NewPCG(md.seed, uint64(p.idx)+0x10ca1))
	tries := 0
	try := func(set []*simNode, mode int) bool {
		tries++
		return pk.ruinRecreate(p, set, mode, rng, scoped)
	}
	for improved := true; improved; {
		improved = false
		nodes = pk.byEfficiency(pk.poolNodes(p))
		// Each node alone, least efficient first.
		for _, n := range nodes {
			if !n.dead && try([]*simNode{n}, 0) {
				improved = true
			}
		}
		nodes = pk.byEfficiency(pk.poolNodes(p))
		k := min(len(nodes), 10)
		for i := 0; i < k; i++ {
			for j := i + 1; j < k; j++ {
				if !nodes[i].dead && !nodes[j].dead && try([]*simNode{nodes[i], nodes[j]}, 0) {
					improved = true
				}
			}
		}
		// The nodes of each zone (a zone's pinned pods need the zone's own nodes).
		for z := range md.zones {
			var set []*simNode
			for _, n := range pk.poolNodes(p) {
				if md.nodeZone(n) == z {
					set = append(set, n)
				}
			}
			if len(set) > 1 {
				for mode := 0; mode < 2; mode++ {
					if try(set, mode) {
						improved = true
						break
					}
				}
			}
		}
		if tries > 4*localTrials {
			break
		}
	}
	pk.lpRuins(p, try)
	for t := 0; t < localTrials; t++ {
		nodes = pk.poolNodes(p)
		if len(nodes) < 2 {
			return
		}
		size := 2 + rng.IntN(min(4, len(nodes)-1))
		rng.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
		try(nodes[:size], 1+rng.IntN(3))
	}
	for t := 0; t < lpTrials && !scoped; t++ {
		nodes = pk.poolNodes(p)
		if len(nodes) < 2 {
			return
		}
		size := 2 + rng.IntN(min(4, len(nodes)-1))
		rng.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
		try(nodes[:size], lpMode)
	}
}

// ruinSizes are the sizes of the large ruins (see lpRuins).
var ruinSizes = []int{8, 16, 32}

// maxRuinPasses caps lpRuins' passes over ruinSizes.
const maxRuinPasses = 3

// lpRuins re-packs the least efficient nodes of the pool in large sets (ruinSizes), from the
// configuration LP first, then by the packer in both orders, pass after pass while one is
// kept. A large set's pods are enough for the LP's mix of node types to pay; a few nodes'
// pods are not, and ruins of a few nodes cannot undo an imbalance that spans dozens.
func (pk *packing) lpRuins(p *simPool, try func([]*simNode, int) bool) {
	for pass := 0; pass < maxRuinPasses; pass++ {
		improved := false
		for _, k := range ruinSizes {
			for _, mode := range []int{lpMode, 0, 1} {
				nodes := pk.byEfficiency(pk.poolNodes(p))
				if len(nodes) < k && (k > ruinSizes[0] || len(nodes) < 3) {
					continue
				}
				if try(nodes[:min(k, len(nodes))], mode) {
					improved = true
				}
			}
		}
		if !improved {
			return
		}
	}
}

// nodeZone is the zone of n's offerings when they are all in one zone, -1 otherwise.
func (md *model) nodeZone(n *simNode) int {
	pt := n.pool.types[n.t]
	z := -1
	for j, zj := range pt.zone {
		if n.mask&(1<<uint(j)) == 0 {
			continue
		}
		if z >= 0 && z != zj {
			return -1
		}
		z = zj
	}
	return z
}

// lpMode is ruinRecreate's mode that re-packs from the configuration LP.
const lpMode = 4

// ruinRecreate takes the pods of set off their nodes and packs them again (mode 0: the
// packer's own order; 1: pinned pods first; 2, 3: jittered, pinned first or not), keeping the
// result when the pool's cost falls. With scoped, the improvement pass after the re-pack
// runs on the nodes the trial opened or changed only, not on the whole pool.
func (pk *packing) ruinRecreate(p *simPool, set []*simNode, mode int, rng *rand.Rand, scoped bool) bool {
	before := pk.poolCost(p)
	// Snapshot: the pool's nodes (restored in place, so that pointers to them stay valid),
	// every unit's pending count, the pool's limits.
	orig := slices.Clone(pk.nodes)
	snap := map[*simNode]*simNode{}
	var others []*simNode
	for _, n := range pk.nodes {
		if n.pool == p {
			snap[n] = n.clone()
		} else {
			others = append(others, n)
		}
	}
	rem := slices.Clone(pk.rem)
	clear(pk.rem)
	limits := slices.Clone(pk.remaining[p.idx])
	inSet := map[*simNode]bool{}
	var items []*unit
	for _, n := range set {
		inSet[n] = true
		for _, pl := range n.place {
			if pk.rem[pl.u.idx] == 0 {
				items = append(items, pl.u)
			}
			pk.rem[pl.u.idx] += pl.n
		}
		pk.charge(p, p.types[n.t], -1)
	}
	var kept []*simNode
	live := others
	for _, n := range pk.nodes {
		if n.pool == p && !inSet[n] {
			kept = append(kept, n)
			live = append(live, n)
		}
	}
	pk.nodes = live
	pk.variant = variant{repeatSlack: 1e-2, pinnedFirst: mode == 1 || mode == 3}
	if mode == 2 || mode == 3 {
		pk.variant.rng = rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].idx < items[j].idx })
	if mode == lpMode {
		// The configuration LP of the set's pods, rounded one node at a time (see dive).
		nodes := pk.diveWith(p, items, false, lpLocalBudget)
		kept = append(kept, nodes...)
		pk.nodes = append(pk.nodes, nodes...)
	}
	var placed bool
	if scoped {
		placed = pk.packOntoScoped(p, items, kept, snap)
	} else {
		placed = pk.packOnto(p, items, kept)
	}
	if placed && pk.poolCost(p) < before-1e-9 {
		for i := range pk.rem {
			pk.rem[i] += rem[i] // pk.rem is 0 here
		}
		for _, n := range set {
			n.dead, n.place = true, nil
		}
		return true
	}
	copy(pk.rem, rem)
	copy(pk.remaining[p.idx], limits)
	for n, c := range snap {
		*n = *c
	}
	pk.nodes = orig
	return false
}

// packOntoScoped is packOnto with the improvement pass on the nodes the packer opened or
// changed only: those absent from before (the pool's nodes as they were, by node) or whose
// usage differs from it.
func (pk *packing) packOntoScoped(p *simPool, items []*unit, nodes []*simNode, before map[*simNode]*simNode) bool {
	pr := pk.newPacker(p, slices.Clone(items)) // it sorts them
	pr.nodes = nodes
	pr.run()
	for _, u := range items {
		if pk.rem[u.idx] != 0 {
			return false
		}
	}
	var touched []*simNode
	for _, n := range pr.nodes {
		if was, ok := before[n]; !ok || !slices.Equal(was.used, n.used) {
			touched = append(touched, n)
		}
	}
	pk.improveNodes(touched)
	return true
}
