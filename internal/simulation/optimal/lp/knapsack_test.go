package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randomKnapsack draws a tiny instance: 2–5 items, counts ≤ 4, 2–3 resources of capacity
// 5–30, weights 1–12 and positive values (integers on odd seeds, so that optima tie).
func randomKnapsack(seed uint64) *Knapsack {
	rng := rand.New(rand.NewPCG(seed, 91))
	n, dims := 2+rng.IntN(4), 2+rng.IntN(2)
	capacity := make([]int64, dims)
	for r := range capacity {
		capacity[r] = int64(5 + rng.IntN(26))
	}
	weight := make([][]int64, n)
	value := make([]float64, n)
	count := make([]int, n)
	for i := range n {
		weight[i] = make([]int64, dims)
		for r := range weight[i] {
			weight[i][r] = int64(1 + rng.IntN(12))
		}
		value[i] = 0.1 + 10*rng.Float64()
		if seed%2 == 1 {
			value[i] = float64(1 + rng.IntN(9))
		}
		count[i] = 1 + rng.IntN(4)
	}
	return NewKnapsack(capacity, weight, value, count)
}

// bruteForce is the exact maximum over packings of the items with use[i] (all when nil)
// within rem, by enumerating every count vector.
func bruteForce(ks *Knapsack, use []bool, rem []int64) float64 {
	take := make([]int, len(ks.value))
	var best float64
	var rec func(i int)
	rec = func(i int) {
		if i == len(take) {
			if packFits(ks, take, rem) {
				best = math.Max(best, packValue(ks, take))
			}
			return
		}
		hi := ks.count[i]
		if use != nil && !use[i] {
			hi = 0
		}
		for take[i] = 0; take[i] <= hi; take[i]++ {
			rec(i + 1)
		}
		take[i] = 0
	}
	rec(0)
	return best
}

func packFits(ks *Knapsack, take []int, rem []int64) bool {
	for r, c := range rem {
		var u int64
		for i, k := range take {
			u += int64(k) * ks.weight[i][r]
		}
		if u > c {
			return false
		}
	}
	return true
}

func packValue(ks *Knapsack, take []int) float64 {
	var v float64
	for i, k := range take {
		v += float64(k) * ks.value[i]
	}
	return v
}

// checkPacking fails unless take is a real packing (within counts and capacity) whose value is
// the one reported and no more than the optimum: a pattern that does not fit the node would
// let column generation price a configuration that cannot exist.
func checkPacking(t *testing.T, name string, ks *Knapsack, take []int, v, opt float64) {
	t.Helper()
	for i, k := range take {
		if k < 0 || k > ks.count[i] {
			t.Fatalf("%s: takes %d of item %d, count %d", name, k, i, ks.count[i])
		}
	}
	if !packFits(ks, take, ks.cap) {
		t.Fatalf("%s: packing %v does not fit %v (weights %v)", name, take, ks.cap, ks.weight)
	}
	if pv := packValue(ks, take); math.Abs(pv-v) > 1e-9 || pv > opt+1e-9 {
		t.Fatalf("%s: packing %v is worth %v, reported %v, optimum %v", name, take, pv, v, opt)
	}
}

// checkUpper fails unless u is an upper bound on the optimum: the certified configuration
// bound is only a lower bound on cost if every pricing bound is a true upper bound.
func checkUpper(t *testing.T, name string, u, opt float64) {
	t.Helper()
	if u < opt-1e-9 {
		t.Fatalf("%s: upper bound %v below the optimum %v", name, u, opt)
	}
}

// TestKnapsackAgainstBruteForce checks every entry point on instances small enough to solve
// by enumeration: packings are real and no better than the optimum, bounds are no lower, the
// search with room to finish is exact, and it reports nothing when asked to beat the optimum.
func TestKnapsackAgainstBruteForce(t *testing.T) {
	for seed := range uint64(300) {
		ks := randomKnapsack(seed)
		opt := bruteForce(ks, nil, ks.cap)
		name := fmt.Sprintf("seed %d (cap %v weight %v value %v count %v)", seed, ks.cap, ks.weight, ks.value, ks.count)

		// Before solveLP (and before solve builds byDim) only the surrogate bound is in play,
		// and greedy fills in search order alone: the pricing loop uses both in this state.
		take, v := ks.Greedy()
		checkPacking(t, name+" greedy before LP", ks, take, v, opt)
		checkUpper(t, name+" relaxation before LP", ks.Relaxation(0, ks.cap), opt)
		ks.SolveLP()
		take, v = ks.Greedy()
		checkPacking(t, name+" greedy after LP", ks, take, v, opt)
		checkUpper(t, name+" relaxation after LP", ks.Relaxation(0, ks.cap), opt)

		// The search prunes with relaxation(pos, rem) on every suffix of the order and every
		// remainder, so it must bound the suffix's optimum there too, with and without byDim.
		rng := rand.New(rand.NewPCG(seed, 92))
		for trial := range 20 {
			if trial == 10 {
				ks.DimOrders()
			}
			pos := rng.IntN(len(ks.order) + 1)
			rem := make([]int64, len(ks.cap))
			for r := range rem {
				rem[r] = rng.Int64N(ks.cap[r] + 1)
			}
			use := make([]bool, len(ks.value))
			for _, i := range ks.order[pos:] {
				use[i] = true
			}
			checkUpper(t, fmt.Sprintf("%s relaxation(%d, %v)", name, pos, rem), ks.Relaxation(pos, rem), bruteForce(ks, use, rem))
		}

		// Exact search; nil only when nothing fits (nil means "nothing beats the target").
		take, v, upper := ks.Solve(0, 1<<20)
		if (take == nil) != (opt == 0) || math.Abs(v-opt) > 1e-9 {
			t.Fatalf("%s: solve found %v worth %v, optimum %v", name, take, v, opt)
		}
		if take != nil {
			checkPacking(t, name+" solve", ks, take, v, opt)
		}
		if math.Abs(upper-opt) > 1e-9 {
			t.Fatalf("%s: finished search reports upper bound %v, optimum %v", name, upper, opt)
		}
		// A budget too small to finish must still bound the optimum (certify relies on it).
		for _, budget := range []int{0, 1, 3} {
			take, v, upper := ks.Solve(0, budget)
			if take != nil {
				checkPacking(t, fmt.Sprintf("%s solve budget %d", name, budget), ks, take, v, opt)
			}
			checkUpper(t, fmt.Sprintf("%s solve budget %d", name, budget), upper, opt)
		}
		// Nothing beats the optimum; the bound must stay valid for a target above it, which
		// is how certify calls solve.
		target := opt + 1e-6
		for _, budget := range []int{3, 1 << 20} {
			take, v, upper = ks.Solve(target, budget)
			if take != nil || v != target {
				t.Fatalf("%s: solve(%v, %d) = %v worth %v, want nil and the target", name, target, budget, take, v)
			}
			checkUpper(t, fmt.Sprintf("%s solve(%v, %d)", name, target, budget), upper, opt)
		}

		// Rounded down, the dynamic program bounds the optimum at any resolution. Rounded up,
		// whatever the grid holds fits both resources on it, so with two resources there is
		// always a packing (nil is only for breaking a third, off-grid one). At 1<<15 cells
		// every weight here is a whole number of grid units, so two resources are exact.
		for _, cells := range []int{16, 256, 1 << 15} {
			_, u := ks.Grid(cells, false)
			checkUpper(t, fmt.Sprintf("%s grid(%d, down)", name, cells), u, opt)
			take, v := ks.Grid(cells, true)
			if take == nil && len(ks.cap) == 2 {
				t.Fatalf("%s: grid(%d, up) found no packing with two resources", name, cells)
			}
			if take != nil {
				checkPacking(t, fmt.Sprintf("%s grid(%d, up)", name, cells), ks, take, v, opt)
			}
			if cells == 1<<15 && len(ks.cap) == 2 && (take == nil || math.Abs(v-opt) > 1e-9 || math.Abs(u-opt) > 1e-9) {
				t.Fatalf("%s: exact grid found %v worth %v, bound %v, optimum %v", name, take, v, u, opt)
			}
		}
	}
}

// TestKnapsackGreedyMixes is why greedy starts from the LP relaxation. Item 0 (3 cpu, 1 GiB)
// is worth a little more per node share than item 1 (1 cpu, 3 GiB) on a 9 cpu / 9 GiB node,
// so filling in search order takes three of item 0, uses all the cpu and strands 6 GiB (9.3).
// The LP optimum is 2.25 of each; its whole part, two of each, is the best packing (12.2).
func TestKnapsackGreedyMixes(t *testing.T) {
	ks := NewKnapsack([]int64{9, 9}, [][]int64{{3, 1}, {1, 3}}, []float64{3.1, 3}, []int{3, 3})
	if take, v := ks.Greedy(); math.Abs(v-9.3) > 1e-9 || take[0] != 3 || take[1] != 0 {
		t.Fatalf("greedy in search order: %v worth %v, want [3 0] worth 9.3", take, v)
	}
	before := ks.Relaxation(0, ks.cap) // surrogate: 3 of item 0, then 1.5 of item 1 = 13.8
	if math.Abs(before-13.8) > 1e-9 {
		t.Fatalf("surrogate bound %v, want 13.8", before)
	}
	ks.SolveLP()
	if math.Abs(ks.frac[0]-2.25) > 1e-9 || math.Abs(ks.frac[1]-2.25) > 1e-9 {
		t.Fatalf("LP relaxation optimum %v, want [2.25 2.25]", ks.frac)
	}
	// At the LP's resource prices the Lagrangian bound is the LP optimum, 2.25·6.1.
	if after := ks.Relaxation(0, ks.cap); math.Abs(after-13.725) > 1e-9 {
		t.Fatalf("relaxation after solveLP %v, want the LP optimum 13.725", after)
	}
	if take, v := ks.Greedy(); math.Abs(v-12.2) > 1e-9 || take[0] != 2 || take[1] != 2 {
		t.Fatalf("greedy from the LP: %v worth %v, want the mixed [2 2] worth 12.2", take, v)
	}
	if take, v, upper := ks.Solve(0, 1000); math.Abs(v-12.2) > 1e-9 || math.Abs(upper-12.2) > 1e-9 || take[0] != 2 || take[1] != 2 {
		t.Fatalf("solve: %v worth %v, bound %v; want [2 2], 12.2 and 12.2", take, v, upper)
	}
}

// solveLP's bounded simplex reaches the LP relaxation's optimum: its solution is feasible and
// worth what the dense covering simplex finds for the same LP (through its dual), on small
// instances and on larger ones (40 items, 3 resources) where ties and degeneracy abound.
func TestKnapsackLPMatchesCoverLP(t *testing.T) {
	for seed := uint64(0); seed < 400; seed++ {
		var ks *Knapsack
		if seed < 300 {
			ks = randomKnapsack(seed)
		} else {
			rng := rand.New(rand.NewPCG(seed, 11))
			capacity := []int64{1000 + rng.Int64N(9000), 1000 + rng.Int64N(9000), 250}
			var weight [][]int64
			var value []float64
			var count []int
			for range 40 {
				weight = append(weight, []int64{int64(50 * (1 + rng.IntN(40))), int64(64 * (1 + rng.IntN(60))), 1})
				value = append(value, float64(1+rng.IntN(5)))
				count = append(count, rng.IntN(6))
			}
			ks = NewKnapsack(capacity, weight, value, count)
		}
		ks.SolveLP()
		var got float64
		used := make([]float64, len(ks.cap))
		for i, a := range ks.frac {
			if a < -1e-9 || a > float64(ks.count[i])+1e-9 {
				t.Fatalf("seed %d: item %d at %v outside [0, %d]", seed, i, a, ks.count[i])
			}
			got += a * ks.value[i]
			for r, w := range ks.weight[i] {
				used[r] += a * float64(w)
			}
		}
		for r, u := range used {
			if u > float64(ks.cap[r])*(1+1e-9)+1e-9 {
				t.Fatalf("seed %d: resource %d used %v > %d", seed, r, u, ks.cap[r])
			}
		}
		n, dims := len(ks.value), len(ks.cap)
		dual := &CoverLP{B: ks.value, C: make([]float64, dims+n)}
		for r := range dims {
			dual.C[r] = float64(ks.cap[r])
		}
		for i := range n {
			dual.C[dims+i] = float64(ks.count[i])
			row := make([]float64, dims+n)
			for r, w := range ks.weight[i] {
				row[r] = float64(w)
			}
			row[dims+i] = 1
			dual.A = append(dual.A, row)
		}
		res, err := dual.Solve()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var want float64
		for i, y := range res.Y {
			want += y * ks.value[i]
		}
		if math.Abs(got-want) > 1e-7*math.Max(1, want) {
			t.Fatalf("seed %d: LP optimum %v, covering dual says %v", seed, got, want)
		}
		if lb := ks.lagrangian(ks.cap, ks.count); lb < got-1e-7*math.Max(1, got) || lb > got+1e-6*math.Max(1, got) {
			t.Fatalf("seed %d: Lagrangian bound at the LP's prices %v, LP optimum %v", seed, lb, got)
		}
	}
}
