package lp

import (
	"cmp"
	"math"
	"slices"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/bitset"
)

// knapsack is the pricing problem of the configuration LP: which pods, at most count[i] of
// item i, to put on one node of capacity cap (one entry per resource) to maximise the sum of
// their values. It is NP-hard in general, but the bound only needs an upper bound on the
// maximum (any valid one keeps the LP bound valid) and the search a good packing.
type Knapsack struct {
	cap    []int64
	weight [][]int64 // per item, per resource
	value  []float64
	count  []int
	// order is the items by decreasing value per unit of the node they use (the sum of their
	// shares of each resource), the search order; byDim the same per single resource.
	order []int
	byDim [][]int
	share []float64 // per item, Σ_r weight_r/cap_r
	zero  []int64
	// lambda prices each resource (per unit) at the optimum of the knapsack's LP relaxation;
	// frac is that optimum's item counts.
	lambda []float64
	frac   []float64
	nodes  int   // search nodes left
	open   []int // scratch of Relaxation
}

func NewKnapsack(capacity []int64, weight [][]int64, value []float64, count []int) *Knapsack {
	ks := &Knapsack{cap: capacity, weight: weight, value: value, count: count, zero: make([]int64, len(capacity))}
	share := make([]float64, len(value))
	ks.share = share
	for i, w := range weight {
		for r, v := range w {
			if v > 0 {
				share[i] += float64(v) / float64(max(capacity[r], 1))
			}
		}
	}
	ks.order = sortedBy(len(value), func(i int) float64 { return value[i] / math.Max(share[i], 1e-12) })
	return ks
}

// dimOrders sorts the items by value per unit of each single resource, for the single
// resource bounds of the search.
func (ks *Knapsack) DimOrders() {
	ks.byDim = make([][]int, len(ks.cap))
	for r := range ks.cap {
		ks.byDim[r] = sortedBy(len(ks.value), func(i int) float64 {
			if ks.weight[i][r] <= 0 {
				return math.Inf(1)
			}
			return ks.value[i] / float64(ks.weight[i][r])
		})
	}
}

// solveLP solves the LP relaxation of the knapsack,
//
//	maximise Σ_i value_i·a_i  s.t.  Σ_i weight_i·a_i ≤ cap,  0 ≤ a_i ≤ count_i,
//
// by the bounded-variable primal simplex method: a row per resource, so the basis is tiny
// and each step costs one pass over the items. Weights are counted in shares of the node's
// capacity so that every coefficient is of order one. λ, the basis's resource prices, make
// the Lagrangian bound (see lagrangian) equal to the LP optimum; frac is the optimum.
func (ks *Knapsack) SolveLP() {
	n, dims := len(ks.value), len(ks.cap)
	w := make([][]float64, n) // w[i][r]: item i's share of resource r
	for i := range n {
		w[i] = make([]float64, dims)
		for r, v := range ks.weight[i] {
			if ks.cap[r] > 0 {
				w[i][r] = float64(v) / float64(ks.cap[r])
			} else if v > 0 {
				w[i][r] = math.Inf(1) // cannot fit; count is 0 anyway
			}
		}
	}
	// Variables 0..n-1 are items, n..n+dims-1 the resources' slacks (capacity 1 each).
	upper := func(j int) float64 {
		if j < n {
			return float64(ks.count[j])
		}
		return math.Inf(1)
	}
	col := func(j, r int) float64 {
		if j < n {
			return w[j][r]
		}
		if j-n == r {
			return 1
		}
		return 0
	}
	cost := func(j int) float64 {
		if j < n {
			return ks.value[j]
		}
		return 0
	}
	x := make([]float64, n+dims)
	basis := make([]int, dims)
	binv := make([][]float64, dims)
	for r := range dims {
		basis[r] = n + r
		x[n+r] = 1
		binv[r] = make([]float64, dims)
		binv[r][r] = 1
	}
	inBasis := make([]bool, n+dims)
	for _, j := range basis {
		inBasis[j] = true
	}
	lambda := make([]float64, dims)
	alpha := make([]float64, dims)
	for iter := 0; iter < 20*(n+dims); iter++ {
		bland := iter > 5*(n+dims)
		for r := range lambda {
			lambda[r] = 0
			for k, j := range basis {
				lambda[r] += cost(j) * binv[k][r]
			}
		}
		// Entering: a nonbasic variable at its lower bound with positive reduced value, or at
		// its upper bound with negative.
		q, dir, best := -1, 0.0, 1e-12
		for j := range n + dims {
			if inBasis[j] || upper(j) <= 0 {
				continue // basic, or fixed at 0
			}
			d := cost(j)
			for r := range dims {
				d -= lambda[r] * col(j, r)
			}
			atUpper := x[j] >= upper(j)-1e-12
			score := d
			if atUpper {
				score = -d
			}
			if score > best && (!atUpper || d < 0) {
				q, best = j, score
				dir = 1
				if atUpper {
					dir = -1
				}
				if bland {
					break
				}
			}
		}
		if q < 0 {
			break
		}
		for k := range dims {
			alpha[k] = 0
			for r := range dims {
				alpha[k] += binv[k][r] * col(q, r)
			}
		}
		// Largest step t ≥ 0 moving x_q by dir·t and each basic x_B[k] by −dir·t·alpha[k].
		t, leave := upper(q), -1
		for k, j := range basis {
			delta := -dir * alpha[k]
			var room float64
			switch {
			case delta < -1e-12:
				room = x[j] / -delta
			case delta > 1e-12:
				room = (upper(j) - x[j]) / delta
			default:
				continue
			}
			if room < t-1e-12 || (room <= t+1e-12 && leave >= 0 && basis[leave] > j) {
				t, leave = room, k
			}
		}
		if math.IsInf(t, 1) {
			break // cannot happen: every item's weight or count is bounded
		}
		x[q] += dir * t
		for k, j := range basis {
			x[j] = math.Min(math.Max(x[j]-dir*t*alpha[k], 0), upper(j))
		}
		if leave < 0 {
			continue // the entering variable went from one bound to the other
		}
		// Pivot on alpha[leave].
		p := alpha[leave]
		scaleRow(binv[leave], 1/p)
		for k := range dims {
			if k != leave && alpha[k] != 0 {
				axpy(binv[k], binv[leave], -alpha[k])
			}
		}
		inBasis[basis[leave]] = false
		inBasis[q] = true
		basis[leave] = q
	}
	ks.lambda = make([]float64, dims)
	for r := range dims {
		if ks.cap[r] > 0 {
			ks.lambda[r] = math.Max(0, lambda[r]) / float64(ks.cap[r])
		}
	}
	ks.frac = x[:n]
}

// lagrangian is the upper bound λ·rem + Σ_i open_i·max(0, value_i − λ·weight_i), valid for
// any λ ≥ 0 because each item either pays for the resources it uses at λ or adds its surplus.
func (ks *Knapsack) lagrangian(rem []int64, open []int) float64 {
	var v float64
	for r, l := range ks.lambda {
		v += l * float64(rem[r])
	}
	for i, k := range open {
		if k == 0 {
			continue
		}
		if s := ks.value[i] - Dot(ks.lambda, ks.weight[i]); s > 0 {
			v += float64(k) * s
		}
	}
	return v
}

// sortedBy returns 0..n-1 by decreasing key, ties by index.
func sortedBy(n int, key func(int) float64) []int {
	out := make([]int, n)
	keys := make([]float64, n)
	for i := range out {
		out[i], keys[i] = i, key(i)
	}
	slices.SortFunc(out, func(a, b int) int {
		if c := cmp.Compare(keys[b], keys[a]); c != 0 {
			return c
		}
		return a - b
	})
	return out
}

// greedy takes the whole part of the LP relaxation's optimum, then fills the node in search
// order with as many of each item as still fit.
func (ks *Knapsack) Greedy() ([]int, float64) {
	rem := append([]int64(nil), ks.cap...)
	take := make([]int, len(ks.value))
	var v float64
	for i, f := range ks.frac {
		k := min(int(math.Floor(f+1e-9)), MaxFit(rem, ks.zero, ks.weight[i], ks.count[i]))
		if k <= 0 {
			continue
		}
		take[i] = k
		v += float64(k) * ks.value[i]
		for r, w := range ks.weight[i] {
			rem[r] -= int64(k) * w
		}
	}
	for _, i := range ks.order {
		k := MaxFit(rem, ks.zero, ks.weight[i], ks.count[i]-take[i])
		if k <= 0 {
			continue
		}
		take[i] += k
		v += float64(k) * ks.value[i]
		for r, w := range ks.weight[i] {
			rem[r] -= int64(k) * w
		}
	}
	return take, v
}

// relaxation is an upper bound on the value the items from position pos of the search order on
// can add within rem: the smallest of the fractional (LP) knapsack bounds of each single
// resource and of their sum weighted by capacity, all relaxations of the node's constraints.
func (ks *Knapsack) Relaxation(pos int, rem []int64) float64 {
	// Counts capped to what fits in rem on its own (a scratch slice: Relaxation allocated a
	// slice per call, and the search calls it at every node).
	if ks.open == nil {
		ks.open = make([]int, len(ks.value))
	}
	open := ks.open
	clear(open)
	for _, i := range ks.order[pos:] {
		open[i] = MaxFit(rem, ks.zero, ks.weight[i], ks.count[i])
	}
	best := math.Inf(1)
	for r, order := range ks.byDim { // once dimOrders ran
		room := float64(rem[r])
		var v float64
		for _, i := range order {
			if open[i] == 0 {
				continue
			}
			w := float64(ks.weight[i][r]) * float64(open[i])
			if w <= room {
				room -= w
				v += ks.value[i] * float64(open[i])
				continue
			}
			v += ks.value[i] * room / float64(ks.weight[i][r])
			break
		}
		best = math.Min(best, v)
	}
	// Surrogate: Σ_r weight_r/cap_r ≤ Σ_r rem_r/cap_r, items in search order (by that ratio).
	var room float64
	for r, c := range ks.cap {
		if c > 0 {
			room += float64(rem[r]) / float64(c)
		}
	}
	var v float64
	for _, i := range ks.order[pos:] {
		if open[i] == 0 {
			continue
		}
		s := ks.share[i]
		if s*float64(open[i]) <= room {
			room -= s * float64(open[i])
			v += ks.value[i] * float64(open[i])
			continue
		}
		v += ks.value[i] * room / s
		break
	}
	best = math.Min(best, v)
	if ks.lambda != nil {
		best = math.Min(best, ks.lagrangian(rem, open))
	}
	return best
}

// solve searches (depth first, most valuable items first) for the best packing worth more
// than target, within a budget of search nodes. It returns the best packing found (nil if
// none beats target) and an upper bound on the value of every packing: exact when the search
// finished, else the relaxation of the subtrees it did not explore.
func (ks *Knapsack) Solve(target float64, budget int) ([]int, float64, float64) {
	if ks.byDim == nil {
		ks.DimOrders()
	}
	ks.nodes = budget
	take := make([]int, len(ks.value))
	var best []int
	bestV := target
	if g, v := ks.Greedy(); v > bestV {
		best, bestV = g, v
	}
	rem := append([]int64(nil), ks.cap...)
	zero := make([]int64, len(rem))
	var dfs func(pos int, val float64) float64
	dfs = func(pos int, val float64) float64 {
		if pos == len(ks.order) {
			if val > bestV {
				bestV, best = val, append([]int(nil), take...)
			}
			return val
		}
		ub := val + ks.Relaxation(pos, rem)
		if ub <= bestV || ks.nodes <= 0 {
			return ub
		}
		ks.nodes--
		i := ks.order[pos]
		k := MaxFit(rem, zero, ks.weight[i], ks.count[i])
		upper := math.Inf(-1)
		for n := k; n >= 0; n-- {
			take[i] = n
			for r, w := range ks.weight[i] {
				rem[r] -= int64(n) * w
			}
			upper = math.Max(upper, dfs(pos+1, val+float64(n)*ks.value[i]))
			for r, w := range ks.weight[i] {
				rem[r] += int64(n) * w
			}
		}
		take[i] = 0
		return upper
	}
	upper := dfs(0, 0)
	return best, bestV, math.Max(upper, 0)
}

// grid solves the knapsack by dynamic programming over its two most contested resources, on a
// grid of at most cells states. Rounded down (up=false), every item's weight and the
// capacity are counted in whole grid units, so every packing that fits the node fits the
// grid (Σ⌊w/g⌋ ≤ ⌊Σw/g⌋): the optimum is an upper bound, returned without a packing. Rounded
// up, every packing the grid holds fits the node in those two resources: the packing returned
// (nil when it breaks another resource) is a real one and its value a lower bound. Where the
// weights share a divisor as large as the grid unit (requests in round millicores) neither
// rounding loses anything. Nodes that hold few pods, each a large share of the node, are
// where the LP relaxation is loose and this is what proves or finds their best packing.
func (ks *Knapsack) Grid(cells int, up bool) ([]int, float64) {
	dims := sortedBy(len(ks.cap), func(r int) float64 {
		if ks.cap[r] <= 0 {
			return 0
		}
		var s float64
		for i, w := range ks.weight {
			s += float64(w[r]) * float64(ks.count[i])
		}
		return s / float64(ks.cap[r])
	})
	var unit [2]int64
	var size [2]int
	for k := range min(2, len(dims)) {
		r := dims[k]
		if ks.cap[r] <= 0 {
			continue
		}
		var g int64
		for _, w := range ks.weight {
			g = gcd(g, w[r])
		}
		// The first resource takes up to √cells states, the second what the first leaves.
		unit[k] = max(g, ks.cap[r]/int64(math.Sqrt(float64(cells))), 1)
		if k == 1 {
			unit[k] = max(g, ks.cap[r]*int64(size[0]+1)/int64(cells), 1)
		}
		size[k] = int(ks.cap[r] / unit[k])
	}
	units := func(i, k int) int {
		if unit[k] == 0 {
			return 0
		}
		w := ks.weight[i][dims[k]]
		if up {
			return int((w + unit[k] - 1) / unit[k])
		}
		return int(w / unit[k])
	}
	stride := size[1] + 1
	states := (size[0] + 1) * stride
	f := make([]float64, states)
	type piece struct {
		item, copies, a, b int
		took               bitset.Set
	}
	var pieces []piece
	var free float64
	freeTake := make([]int, len(ks.value))
	for i, v := range ks.value {
		wa, wb := units(i, 0), units(i, 1)
		if wa == 0 && wb == 0 {
			free += v * float64(ks.count[i])
			freeTake[i] = ks.count[i]
			continue
		}
		// Binary splitting turns count copies into pieces of 1, 2, 4, … copies.
		for left, n := ks.count[i], 1; left > 0; n *= 2 {
			k := min(n, left)
			left -= k
			pc := piece{item: i, copies: k, a: wa * k, b: wb * k}
			if up {
				pc.took = bitset.New(states)
			}
			pv := v * float64(k)
			for a := size[0]; a >= pc.a; a-- {
				for b := size[1]; b >= pc.b; b-- {
					s := a*stride + b
					if c := f[s-pc.a*stride-pc.b] + pv; c > f[s] {
						f[s] = c
						if up {
							pc.took.Add(s)
						}
					}
				}
			}
			pieces = append(pieces, pc)
		}
	}
	best := f[states-1] + free
	if !up {
		return nil, best
	}
	take := freeTake
	a, b := size[0], size[1]
	for p := len(pieces) - 1; p >= 0; p-- {
		if pc := pieces[p]; pc.took.Has(a*stride + b) {
			take[pc.item] += pc.copies
			a, b = a-pc.a, b-pc.b
		}
	}
	used := make([]int64, len(ks.cap))
	var v float64
	for i, k := range take {
		for r, w := range ks.weight[i] {
			used[r] += int64(k) * w
		}
		v += float64(k) * ks.value[i]
	}
	for r, u := range used {
		if u > ks.cap[r] {
			return nil, 0
		}
	}
	return take, v
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Dot is the value of resource amounts d at per-unit prices w.
func Dot(w []float64, d []int64) float64 {
	var s float64
	for r, v := range d {
		s += w[r] * float64(v)
	}
	return s
}

// MaxFit is how many pods of request d fit into alloc after used.
func MaxFit(alloc, used, d []int64, limit int) int {
	k := int64(limit)
	for r, v := range d {
		if v <= 0 {
			continue
		}
		free := alloc[r] - used[r]
		if free < 0 {
			return 0
		}
		if f := free / v; f < k {
			k = f
		}
	}
	return int(k)
}

// Capacity is the node's capacity per resource (read-only).
func (ks *Knapsack) Capacity() []int64 { return ks.cap }
