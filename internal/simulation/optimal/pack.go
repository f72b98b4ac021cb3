package optimal

import (
	"fmt"
	"math"
	"sort"

	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal/lp"
)

// simNode is a node being packed: its type, the offerings all its pods allow, and its pods.
type simNode struct {
	pool  *simPool
	t     int
	mask  uint64
	used  []int64
	place []placement
	dead  bool
}

type placement struct {
	u *unit
	n int
}

func (pb *problem) unitMask(u *unit, p *simPool, t int) uint64 {
	m := pb.classes[pb.workloads[u.w].class].masks[p.idx][t]
	if u.zone >= 0 && m != 0 {
		m &= p.types[t].zoneMask[u.zone]
	}
	return m
}

// schedule assigns pods to pools in Karpenter's order: every pod tries its first pool; pods
// that the pool's limits leave out try the next one.
func (pb *problem) schedule() {
	for _, p := range pb.pools {
		var items []*unit
		for _, u := range pb.units {
			sw := pb.workloads[u.w]
			if u.rem > 0 && u.nextPool < len(sw.pools) && sw.pools[u.nextPool] == p.idx {
				items = append(items, u)
			}
		}
		if len(items) == 0 {
			continue
		}
		pk := pb.newPacker(p, items)
		pk.run()
		for _, u := range items {
			if u.rem > 0 {
				u.blocked = append(u.blocked, fmt.Sprintf("NodePool %q: %s", p.name, u.reason))
				u.nextPool++
			}
		}
	}
}

// packer packs one pool's share of the pods.
type packer struct {
	// The previous search's winner and its score (see repeat).
	lastT     int
	lastScore float64
	pb        *problem
	p         *simPool
	items     []*unit
	w         []float64 // value of one unit of each dim
	rho       []float64 // per type: cheapest price ÷ value of its allocatable (≤ its score, up to the jitter)
	order     []int     // types by rho
	// Per item, for the hot loops: its class's offering masks in this pool, zone, request.
	imask  [][]uint64
	izone  []int
	id     [][]int64
	live   []int     // items from the current one on that still have pods to place
	used   []int64   // scratch for simulate
	demand []float64 // scratch for pack
	taken  []int     // scratch for pack
	nodes  []*simNode
}

func (pb *problem) newPacker(p *simPool, items []*unit) *packer {
	pk := &packer{pb: pb, p: p, items: items, lastT: -1, used: make([]int64, len(pb.dims)), demand: make([]float64, len(pb.dims)), taken: make([]int, len(items))}
	pk.w = pb.resourceValues(p, items)
	for _, u := range items {
		u.value = lp.Dot(pk.w, pb.workloads[u.w].d) * pb.variant.jitter(u)
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if pb.variant.pinnedFirst && (a.zone >= 0) != (b.zone >= 0) {
			return a.zone >= 0
		}
		if a.value != b.value {
			return a.value > b.value
		}
		da, db := pb.workloads[a.w].d, pb.workloads[b.w].d
		for r := range da {
			if da[r] != db[r] {
				return da[r] > db[r]
			}
		}
		if a.w != b.w {
			return a.w < b.w
		}
		return a.zone < b.zone
	})
	for _, u := range items {
		pk.imask = append(pk.imask, pb.classes[pb.workloads[u.w].class].masks[p.idx])
		pk.izone = append(pk.izone, u.zone)
		pk.id = append(pk.id, pb.workloads[u.w].d)
	}
	pk.rho = make([]float64, len(p.types))
	pk.order = make([]int, 0, len(p.types))
	for t, pt := range p.types {
		v := 0.0
		for r, a := range pt.alloc {
			if a > 0 {
				v += pk.w[r] * float64(a)
			}
		}
		pk.rho[t] = math.Inf(1)
		if v > 0 {
			pk.rho[t] = pt.minPrice / v
		}
		if pt.usable {
			pk.order = append(pk.order, t)
		}
	}
	sort.SliceStable(pk.order, func(i, j int) bool { return pk.rho[pk.order[i]] < pk.rho[pk.order[j]] })
	return pk
}

// resourceValues prices each resource for packing decisions: the LP dual prices (what one more
// unit of the resource costs at the fractional optimum) of the pool's demand, plus a small
// share of the demand so that no requested resource is worth nothing.
func (pb *problem) resourceValues(p *simPool, items []*unit) []float64 {
	dims := len(pb.dims)
	demand := make([]float64, dims)
	for _, u := range items {
		for r, v := range pb.workloads[u.w].d {
			demand[r] += float64(v) * float64(u.rem)
		}
	}
	var rows []int
	for r, v := range demand {
		if v > 0 {
			rows = append(rows, r)
		}
	}
	cover := &lp.CoverLP{A: make([][]float64, len(rows)), B: make([]float64, len(rows))}
	for i, r := range rows {
		cover.B[i] = demand[r]
	}
	for _, pt := range p.types {
		if !pt.usable {
			continue
		}
		cover.C = append(cover.C, pt.minPrice)
		for i, r := range rows {
			cover.A[i] = append(cover.A[i], float64(max(pt.alloc[r], 0)))
		}
	}
	w := make([]float64, dims)
	res, err := cover.Solve()
	total := 1.0
	if err == nil {
		for i, r := range rows {
			w[r] = res.Y[i]
		}
		total = math.Max(res.Bound, 1e-9)
	}
	for _, r := range rows {
		w[r] += 1e-3 * total / (float64(len(rows)) * demand[r])
	}
	return w
}

// itemMask is unitMask for items[j] on type t.
func (pk *packer) itemMask(j, t int) uint64 {
	m := pk.imask[j][t]
	if z := pk.izone[j]; z >= 0 && m != 0 {
		m &= pk.p.types[t].zoneMask[z]
	}
	return m
}

func (pk *packer) run() {
	for i, u := range pk.items {
		for u.rem > 0 {
			pk.firstFit(u)
			if u.rem == 0 {
				break
			}
			pk.live = pk.live[:0]
			for j := i; j < len(pk.items); j++ {
				if pk.items[j].rem > 0 {
					pk.live = append(pk.live, j)
				}
			}
			if pk.repeat(i) {
				continue
			}
			t, m, limited := pk.best(i)
			if t < 0 {
				u.reason = pk.failReason(u, limited)
				break
			}
			pk.open(t, m, i)
		}
	}
}

// firstFit puts as many of u's pods as fit onto the pool's open nodes, oldest first.
func (pk *packer) firstFit(u *unit) {
	d := pk.pb.workloads[u.w].d
	for _, n := range pk.nodes {
		m := n.mask & pk.pb.unitMask(u, pk.p, n.t)
		if m == 0 {
			continue
		}
		k := lp.MaxFit(pk.p.types[n.t].alloc, n.used, d, u.rem)
		if k == 0 {
			continue
		}
		n.add(u, k, d, m)
		if u.rem == 0 {
			return
		}
	}
}

func (n *simNode) add(u *unit, k int, d []int64, mask uint64) {
	n.mask = mask
	for r, v := range d {
		n.used[r] += v * int64(k)
	}
	for i := range n.place {
		if n.place[i].u == u {
			n.place[i].n += k
			u.rem -= k
			return
		}
	}
	n.place = append(n.place, placement{u, k})
	u.rem -= k
}

// maxCandidates caps the types tried for a new node. They are tried from the lowest rho,
// and past the first few dozen the winner practically never changes while each trial costs a
// pass over the pending pods.
const maxCandidates = 64

// best chooses the type of a new node opened for items[i]: the lowest price per value of the
// pods it would hold when filled first-fit-decreasing. Types are tried by rho, a lower bound
// on their score, so the search stops as soon as no untried type can win.
func (pk *packer) best(i int) (int, uint64, bool) {
	u := pk.items[i]
	d := pk.pb.workloads[u.w].d
	bestScore, bestT, bestM := math.Inf(1), -1, uint64(0)
	limited := false
	tried := 0
	for _, t := range pk.order {
		if pk.rho[t] >= bestScore || tried == maxCandidates {
			break
		}
		pt := pk.p.types[t]
		m := pk.itemMask(i, t)
		if m == 0 || !fits(pt.alloc, nil, d, 1) {
			continue
		}
		if !pk.withinLimits(t) {
			limited = true
			continue
		}
		tried++
		mask, value := pk.simulate(t, m, i)
		if value <= 0 {
			continue
		}
		if score := cheapest(pt, mask) / value; score < bestScore {
			bestScore, bestT, bestM = score, t, m
		}
	}
	pk.lastT, pk.lastScore = bestT, bestScore
	return bestT, bestM, limited
}

// repeat opens a node of the previous search's winning type for items[i] and keeps it when it
// scores as well as it did then (within the variant's slack), undoing it otherwise: in a large
// pod set the same type wins many times in a row, and one committed fill instead of a search
// over every candidate keeps packing linear in practice.
func (pk *packer) repeat(i int) bool {
	t := pk.lastT
	if t < 0 {
		return false
	}
	pt := pk.p.types[t]
	m := pk.itemMask(i, t)
	if m == 0 || !fits(pt.alloc, nil, pk.id[i], 1) || !pk.withinLimits(t) {
		return false
	}
	n := pk.open(t, m, i)
	var value float64
	for _, pl := range n.place {
		value += float64(pl.n) * pl.u.value
	}
	if value > 0 && cheapest(pt, n.mask)/value <= pk.lastScore*(1+pk.pb.variant.repeatSlack) {
		return true
	}
	// Undo: the pods go back to pending and the node and its limit charge away.
	for _, pl := range n.place {
		pl.u.rem += pl.n
	}
	pk.charge(t, -1)
	pk.nodes = pk.nodes[:len(pk.nodes)-1]
	pk.pb.nodes = pk.pb.nodes[:len(pk.pb.nodes)-1]
	return false
}

// open starts a node of type t with offerings m and fills it from items[i] on.
func (pk *packer) open(t int, m uint64, i int) *simNode {
	n := &simNode{pool: pk.p, t: t, mask: m, used: make([]int64, len(pk.pb.dims))}
	pk.fill(n, i)
	pk.charge(t, 1)
	pk.nodes = append(pk.nodes, n)
	pk.pb.nodes = append(pk.pb.nodes, n)
	return n
}

// simulate fills an empty node of type t (offerings m) with items[from:] without committing,
// returning the offerings left and the value packed.
func (pk *packer) simulate(t int, m uint64, from int) (uint64, float64) {
	clear(pk.used)
	return pk.pack(t, m, from, pk.used, nil)
}

// fill is simulate committed onto n.
func (pk *packer) fill(n *simNode, from int) {
	n.mask, _ = pk.pack(n.t, n.mask, from, n.used, n)
}

// pack fills a node of type t in two passes. The first gives the node its proportional share
// of every compatible item (as large a fraction α of each as the scarcest resource allows),
// so that its pods have the mix of the remaining demand and use all its resources evenly,
// as the LP's fractional nodes do; the second tops it up first-fit-decreasing. Plain
// first-fit-decreasing would fill a node with the largest pods and strand the resources they
// do not use (cpu-heavy pods first, memory idle). When n is nil nothing is committed.
func (pk *packer) pack(t int, m uint64, from int, used []int64, n *simNode) (uint64, float64) {
	pt := pk.p.types[t]
	demand := pk.demand
	clear(demand)
	for _, j := range pk.live {
		v := pk.items[j]
		if v.rem == 0 || m&pk.itemMask(j, t) == 0 {
			continue
		}
		for r, x := range pk.id[j] {
			demand[r] += float64(x) * float64(v.rem)
		}
	}
	alpha := 1.0
	for r, x := range demand {
		if x > 0 {
			alpha = math.Min(alpha, float64(pt.alloc[r])/x)
		}
	}
	taken := pk.taken
	for _, j := range pk.live {
		taken[j] = 0
	}
	var value float64
	for pass := 0; pass < 2; pass++ {
		for _, j := range pk.live {
			v := pk.items[j]
			left := v.rem - taken[j]
			if left <= 0 {
				continue
			}
			mv := m & pk.itemMask(j, t)
			if mv == 0 {
				continue
			}
			want := left
			if pass == 0 {
				want = min(left, int(math.Ceil(alpha*float64(v.rem))))
			}
			d := pk.id[j]
			k := lp.MaxFit(pt.alloc, used, d, want)
			if k == 0 {
				continue
			}
			m = mv
			taken[j] += k
			value += float64(k) * v.value
			if n != nil {
				n.add(v, k, d, mv)
				taken[j] -= k // add took them off v.rem
				continue
			}
			for r, x := range d {
				used[r] += x * int64(k)
			}
		}
	}
	return m, value
}

func cheapest(pt *poolType, mask uint64) float64 {
	best := math.Inf(1)
	for j, p := range pt.price {
		if mask&(1<<uint(j)) != 0 && p < best {
			best = p
		}
	}
	return best
}

func (pk *packer) withinLimits(t int) bool { return pk.p.allows(pk.p.types[t], nil) }

// allows reports whether launching a node of type pt (in place of the node of type old, if
// any) stays within the pool's limits, judged as Karpenter's filterByRemainingResources does:
// the node's capacity may not exceed what remains of any limited resource.
func (p *simPool) allows(pt, old *poolType) bool {
	for i, l := range p.limits {
		free := l.remaining
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

func (pk *packer) charge(t int, sign int64) { pk.p.charge(pk.p.types[t], sign) }

func (p *simPool) charge(pt *poolType, sign int64) {
	for i := range p.limits {
		p.limits[i].remaining -= sign * pt.capLimit[i]
	}
}

// failReason words why no node could be opened for u, as Karpenter's scheduler does.
func (pk *packer) failReason(u *unit, limited bool) string {
	if limited {
		for _, l := range pk.p.limits {
			if l.name == resources.Node && l.remaining < 1 {
				return "node limits have been exhausted for nodepool"
			}
		}
		return "all available instance types exceed limits for nodepool"
	}
	if u.zone >= 0 {
		return fmt.Sprintf("no instance type in zone %s has enough resources for %s", pk.pb.zones[u.zone], pk.pb.describe(pk.pb.workloads[u.w].d))
	}
	return "no instance type has enough resources for " + pk.pb.describe(pk.pb.workloads[u.w].d)
}
