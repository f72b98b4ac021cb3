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

func (md *model) unitMask(u *unit, p *simPool, t int) uint64 {
	m := md.classes[md.workloads[u.w].class].masks[p.idx][t]
	if u.zone >= 0 && m != 0 {
		m &= p.types[t].zoneMask[u.zone]
	}
	return m
}

// schedule assigns pods to pools in Karpenter's order: every pod tries its first pool; pods
// that the pool's limits leave out try the next one.
func (pk *packing) schedule() {
	md := pk.md
	for _, p := range md.pools {
		var items []*unit
		for _, u := range md.units {
			sw := md.workloads[u.w]
			if i := u.idx; pk.rem[i] > 0 && pk.nextPool[i] < len(sw.pools) && sw.pools[pk.nextPool[i]] == p.idx {
				items = append(items, u)
			}
		}
		if len(items) == 0 {
			continue
		}
		pr := pk.newPacker(p, items)
		pr.run()
		for _, u := range items {
			if i := u.idx; pk.rem[i] > 0 {
				pk.blocked[i] = append(pk.blocked[i], fmt.Sprintf("NodePool %q: %s", p.name, pk.reason[i]))
				pk.nextPool[i]++
			}
		}
	}
}

// packer packs one pool's share of the pods into a packing.
type packer struct {
	// The previous search's winner and its score (see repeat).
	lastT     int
	lastScore float64
	md        *model
	pk        *packing
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

func (pk *packing) newPacker(p *simPool, items []*unit) *packer {
	md := pk.md
	pr := &packer{md: md, pk: pk, p: p, items: items, lastT: -1, used: make([]int64, len(md.dims)), demand: make([]float64, len(md.dims)), taken: make([]int, len(items))}
	pr.w = pk.resourceValues(p, items)
	for _, u := range items {
		pk.value[u.idx] = lp.Dot(pr.w, md.workloads[u.w].d) * pk.variant.jitter(u)
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if pk.variant.pinnedFirst && (a.zone >= 0) != (b.zone >= 0) {
			return a.zone >= 0
		}
		if va, vb := pk.value[a.idx], pk.value[b.idx]; va != vb {
			return va > vb
		}
		da, db := md.workloads[a.w].d, md.workloads[b.w].d
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
		pr.imask = append(pr.imask, md.classes[md.workloads[u.w].class].masks[p.idx])
		pr.izone = append(pr.izone, u.zone)
		pr.id = append(pr.id, md.workloads[u.w].d)
	}
	pr.rho = make([]float64, len(p.types))
	pr.order = make([]int, 0, len(p.types))
	for t, pt := range p.types {
		v := 0.0
		for r, a := range pt.alloc {
			if a > 0 {
				v += pr.w[r] * float64(a)
			}
		}
		pr.rho[t] = math.Inf(1)
		if v > 0 {
			pr.rho[t] = pt.minPrice / v
		}
		if pt.usable {
			pr.order = append(pr.order, t)
		}
	}
	sort.SliceStable(pr.order, func(i, j int) bool { return pr.rho[pr.order[i]] < pr.rho[pr.order[j]] })
	return pr
}

// resourceValues prices each resource for packing decisions: the LP dual prices (what one more
// unit of the resource costs at the fractional optimum) of the pool's demand, plus a small
// share of the demand so that no requested resource is worth nothing.
func (pk *packing) resourceValues(p *simPool, items []*unit) []float64 {
	md := pk.md
	dims := len(md.dims)
	demand := make([]float64, dims)
	for _, u := range items {
		for r, v := range md.workloads[u.w].d {
			demand[r] += float64(v) * float64(pk.rem[u.idx])
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
func (pr *packer) itemMask(j, t int) uint64 {
	m := pr.imask[j][t]
	if z := pr.izone[j]; z >= 0 && m != 0 {
		m &= pr.p.types[t].zoneMask[z]
	}
	return m
}

func (pr *packer) run() {
	rem := pr.pk.rem
	for i, u := range pr.items {
		for rem[u.idx] > 0 {
			pr.firstFit(u)
			if rem[u.idx] == 0 {
				break
			}
			pr.live = pr.live[:0]
			for j := i; j < len(pr.items); j++ {
				if rem[pr.items[j].idx] > 0 {
					pr.live = append(pr.live, j)
				}
			}
			if pr.repeat(i) {
				continue
			}
			t, m, limited := pr.best(i)
			if t < 0 {
				pr.pk.reason[u.idx] = pr.failReason(u, limited)
				break
			}
			pr.open(t, m, i)
		}
	}
}

// firstFit puts as many of u's pods as fit onto the pool's open nodes, oldest first.
func (pr *packer) firstFit(u *unit) {
	d := pr.md.workloads[u.w].d
	for _, n := range pr.nodes {
		m := n.mask & pr.md.unitMask(u, pr.p, n.t)
		if m == 0 {
			continue
		}
		k := lp.MaxFit(pr.p.types[n.t].alloc, n.used, d, pr.pk.rem[u.idx])
		if k == 0 {
			continue
		}
		pr.pk.add(n, u, k, d, m)
		if pr.pk.rem[u.idx] == 0 {
			return
		}
	}
}

// add puts k of u's pending pods onto n, whose offerings become mask.
func (pk *packing) add(n *simNode, u *unit, k int, d []int64, mask uint64) {
	n.mask = mask
	for r, v := range d {
		n.used[r] += v * int64(k)
	}
	pk.rem[u.idx] -= k
	for i := range n.place {
		if n.place[i].u == u {
			n.place[i].n += k
			return
		}
	}
	n.place = append(n.place, placement{u, k})
}

// maxCandidates caps the types tried for a new node. They are tried from the lowest rho,
// and past the first few dozen the winner practically never changes while each trial costs a
// pass over the pending pods.
const maxCandidates = 64

// best chooses the type of a new node opened for items[i]: the lowest price per value of the
// pods it would hold when filled first-fit-decreasing. Types are tried by rho, a lower bound
// on their score, so the search stops as soon as no untried type can win.
func (pr *packer) best(i int) (int, uint64, bool) {
	u := pr.items[i]
	d := pr.md.workloads[u.w].d
	bestScore, bestT, bestM := math.Inf(1), -1, uint64(0)
	limited := false
	tried := 0
	for _, t := range pr.order {
		if pr.rho[t] >= bestScore || tried == maxCandidates {
			break
		}
		pt := pr.p.types[t]
		m := pr.itemMask(i, t)
		if m == 0 || !fits(pt.alloc, nil, d, 1) {
			continue
		}
		if !pr.withinLimits(t) {
			limited = true
			continue
		}
		tried++
		mask, value := pr.simulate(t, m, i)
		if value <= 0 {
			continue
		}
		if score := cheapest(pt, mask) / value; score < bestScore {
			bestScore, bestT, bestM = score, t, m
		}
	}
	pr.lastT, pr.lastScore = bestT, bestScore
	return bestT, bestM, limited
}

// repeat opens a node of the previous search's winning type for items[i] and keeps it when it
// scores as well as it did then (within the variant's slack), undoing it otherwise: in a large
// pod set the same type wins many times in a row, and one committed fill instead of a search
// over every candidate keeps packing linear in practice.
func (pr *packer) repeat(i int) bool {
	t := pr.lastT
	if t < 0 {
		return false
	}
	pt := pr.p.types[t]
	m := pr.itemMask(i, t)
	if m == 0 || !fits(pt.alloc, nil, pr.id[i], 1) || !pr.withinLimits(t) {
		return false
	}
	n := pr.open(t, m, i)
	var value float64
	for _, pl := range n.place {
		value += float64(pl.n) * pr.pk.value[pl.u.idx]
	}
	if value > 0 && cheapest(pt, n.mask)/value <= pr.lastScore*(1+pr.pk.variant.repeatSlack) {
		return true
	}
	// Undo: the pods go back to pending and the node and its limit charge away.
	for _, pl := range n.place {
		pr.pk.rem[pl.u.idx] += pl.n
	}
	pr.charge(t, -1)
	pr.nodes = pr.nodes[:len(pr.nodes)-1]
	pr.pk.nodes = pr.pk.nodes[:len(pr.pk.nodes)-1]
	return false
}

// open starts a node of type t with offerings m and fills it from items[i] on.
func (pr *packer) open(t int, m uint64, i int) *simNode {
	n := &simNode{pool: pr.p, t: t, mask: m, used: make([]int64, len(pr.md.dims))}
	pr.fill(n, i)
	pr.charge(t, 1)
	pr.nodes = append(pr.nodes, n)
	pr.pk.nodes = append(pr.pk.nodes, n)
	return n
}

// simulate fills an empty node of type t (offerings m) with items[from:] without committing,
// returning the offerings left and the value packed.
func (pr *packer) simulate(t int, m uint64, from int) (uint64, float64) {
	clear(pr.used)
	return pr.pack(t, m, from, pr.used, nil)
}

// fill is simulate committed onto n.
func (pr *packer) fill(n *simNode, from int) {
	n.mask, _ = pr.pack(n.t, n.mask, from, n.used, n)
}

// pack fills a node of type t in two passes. The first gives the node its proportional share
// of every compatible item (as large a fraction α of each as the scarcest resource allows),
// so that its pods have the mix of the remaining demand and use all its resources evenly,
// as the LP's fractional nodes do; the second tops it up first-fit-decreasing. Plain
// first-fit-decreasing would fill a node with the largest pods and strand the resources they
// do not use (cpu-heavy pods first, memory idle). When n is nil nothing is committed.
func (pr *packer) pack(t int, m uint64, from int, used []int64, n *simNode) (uint64, float64) {
	pt := pr.p.types[t]
	demand := pr.demand
	clear(demand)
	rem, val := pr.pk.rem, pr.pk.value
	for _, j := range pr.live {
		v := pr.items[j]
		if rem[v.idx] == 0 || m&pr.itemMask(j, t) == 0 {
			continue
		}
		for r, x := range pr.id[j] {
			demand[r] += float64(x) * float64(rem[v.idx])
		}
	}
	alpha := 1.0
	for r, x := range demand {
		if x > 0 {
			alpha = math.Min(alpha, float64(pt.alloc[r])/x)
		}
	}
	taken := pr.taken
	for _, j := range pr.live {
		taken[j] = 0
	}
	var value float64
	for pass := 0; pass < 2; pass++ {
		for _, j := range pr.live {
			v := pr.items[j]
			left := rem[v.idx] - taken[j]
			if left <= 0 {
				continue
			}
			mv := m & pr.itemMask(j, t)
			if mv == 0 {
				continue
			}
			want := left
			if pass == 0 {
				want = min(left, int(math.Ceil(alpha*float64(rem[v.idx]))))
			}
			d := pr.id[j]
			k := lp.MaxFit(pt.alloc, used, d, want)
			if k == 0 {
				continue
			}
			m = mv
			taken[j] += k
			value += float64(k) * val[v.idx]
			if n != nil {
				pr.pk.add(n, v, k, d, mv)
				taken[j] -= k // add took them off rem
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

func (pr *packer) withinLimits(t int) bool { return pr.pk.allows(pr.p, pr.p.types[t], nil) }

func (pr *packer) charge(t int, sign int64) { pr.pk.charge(pr.p, pr.p.types[t], sign) }

// failReason words why no node could be opened for u, as Karpenter's scheduler does.
func (pr *packer) failReason(u *unit, limited bool) string {
	if limited {
		for i, l := range pr.p.limits {
			if l.name == resources.Node && pr.pk.remaining[pr.p.idx][i] < 1 {
				return "node limits have been exhausted for nodepool"
			}
		}
		return "all available instance types exceed limits for nodepool"
	}
	if u.zone >= 0 {
		return fmt.Sprintf("no instance type in zone %s has enough resources for %s", pr.md.zones[u.zone], pr.md.describe(pr.md.workloads[u.w].d))
	}
	return "no instance type has enough resources for " + pr.md.describe(pr.md.workloads[u.w].d)
}
