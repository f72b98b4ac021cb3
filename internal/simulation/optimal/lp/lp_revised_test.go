package lp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomCover draws a covering program min c·x s.t. A x ≥ b, x ≥ 0 with nonnegative integer
// A (every row supplied by some column, so it is feasible), b > 0 and c > 0. Tied programs
// have 0/1 entries and demands and costs in {1, 2}: degenerate vertices and ties everywhere.
func randomCover(rng *rand.Rand, m, n int, tied bool) *CoverLP {
	lp := &CoverLP{A: make([][]float64, m), B: make([]float64, m), C: make([]float64, n)}
	top := map[bool]int{false: 7, true: 2}[tied] // entries below top
	for i := range lp.A {
		lp.A[i] = make([]float64, n)
		for j := range lp.A[i] {
			if rng.IntN(3) > 0 {
				lp.A[i][j] = float64(rng.IntN(top))
			}
		}
		if maxOf(lp.A[i]) == 0 {
			lp.A[i][rng.IntN(n)] = float64(1 + rng.IntN(top-1))
		}
		lp.B[i] = float64(1 + rng.IntN(30))
		if tied {
			lp.B[i] = float64(1 + rng.IntN(2))
		} else if rng.IntN(2) == 0 {
			lp.B[i] = 0.5 + 30*rng.Float64()
		}
	}
	for j := range lp.C {
		lp.C[j] = 0.5 + 4.5*rng.Float64()
		if tied {
			lp.C[j] = float64(1 + rng.IntN(2))
		}
	}
	return lp
}

// dense is the sparse column of a dense one.
func dense(col []float64, cost float64) SparseCol {
	c := SparseCol{Cost: cost}
	for i, v := range col {
		if v != 0 {
			c.Rows, c.Vals = append(c.Rows, i), append(c.Vals, v)
		}
	}
	return c
}

// coverCol is column j of a covering program.
func coverCol(cv *CoverLP, j int) SparseCol {
	col := make([]float64, len(cv.A))
	for i := range cv.A {
		col[i] = cv.A[i][j]
	}
	return dense(col, cv.C[j])
}

// standardForm turns A x ≥ b into A x − s + M·e = b with one surplus column (−e_i, cost 0) and
// one expensive unit column (e_i, cost 1e6) per row, and starts from the unit columns at
// x = b, a feasible basis. cols lists which structural columns to add first (all when nil).
func standardForm(t *testing.T, cv *CoverLP, cols []int) *RevisedLP {
	lp := NewRevisedLP(append([]float64(nil), cv.B...))
	if cols == nil {
		for j := range cv.C {
			cols = append(cols, j)
		}
	}
	for _, j := range cols {
		lp.AddCol(coverCol(cv, j))
	}
	basis := make([]int, len(cv.B))
	for i := range basis {
		lp.AddCol(SparseCol{Rows: []int{i}, Vals: []float64{-1}})
		basis[i] = lp.AddCol(SparseCol{Rows: []int{i}, Vals: []float64{1}, Cost: 1e6})
	}
	if err := lp.Start(basis); err != nil {
		t.Fatalf("start: %v", err)
	}
	return lp
}

// checkOptimal verifies an optimal basis from first principles rather than trusting optimize:
// the basic values are nonnegative and solve A z = b (primal feasibility, recomputed from the
// columns, which catches a drifting inverse), every column prices out at y (dual
// feasibility, which is what makes the objective a minimum) and y·b equals c·z (no gap).
func checkOptimal(t *testing.T, name string, lp *RevisedLP) {
	t.Helper()
	r := append([]float64(nil), lp.b...)
	for i, j := range lp.basis {
		if lp.xB[i] < -1e-9 {
			t.Fatalf("%s: basic value x[%d] = %v < 0", name, j, lp.xB[i])
		}
		c := lp.cols[j]
		for k, row := range c.Rows {
			r[row] -= c.Vals[k] * lp.xB[i]
		}
	}
	for i, v := range r {
		if math.Abs(v) > 1e-7*math.Max(1, math.Abs(lp.b[i])) {
			t.Fatalf("%s: row %d of A z = b is off by %v (basis %v, xB %v)", name, i, v, lp.basis, lp.xB)
		}
	}
	y := lp.Duals()
	var yb float64
	for i, v := range y {
		yb += v * lp.b[i]
	}
	for j := range lp.cols {
		if d := lp.ReducedCost(j, y); d < -1e-7 {
			t.Fatalf("%s: column %d has reduced cost %v < 0 at the optimum (duals %v)", name, j, d, y)
		}
	}
	if z := lp.Objective(); math.Abs(yb-z) > 1e-7*math.Max(1, math.Abs(z)) {
		t.Fatalf("%s: duality gap, y·b = %v but c·z = %v", name, yb, z)
	}
}

// mustOptimize optimizes from the current basis and returns the checkOptimal'd objective.
func mustOptimize(t *testing.T, name string, lp *RevisedLP) float64 {
	t.Helper()
	if opt, err := lp.Optimize(100000); !opt || err != nil {
		t.Fatalf("%s: optimize = %v, %v; want optimal", name, opt, err)
	}
	checkOptimal(t, name, lp)
	return lp.Objective()
}

// TestRevisedLPMatchesCoverLP solves random covering programs with both simplex codes: they
// are independent implementations (dense dual tableau vs revised primal with an explicit
// inverse), so agreeing on the optimum, with the revised solution certified by checkOptimal,
// checks both. Odd seeds are tied (degenerate); the last seeds are larger, to run past the
// periodic reinversion of the basis.
func TestRevisedLPMatchesCoverLP(t *testing.T) {
	for seed := range uint64(210) {
		rng := rand.New(rand.NewPCG(seed, 77))
		m, n := 2+rng.IntN(7), 3+rng.IntN(13)
		if seed >= 200 {
			m, n = 25+rng.IntN(10), 150+rng.IntN(100)
		}
		cv := randomCover(rng, m, n, seed%2 == 1)
		res, err := cv.Solve()
		if err != nil {
			t.Fatalf("seed %d: CoverLP: %v", seed, err)
		}
		name := fmt.Sprintf("seed %d (%d×%d)", seed, m, n)
		if z := mustOptimize(t, name, standardForm(t, cv, nil)); math.Abs(z-res.Bound) > 1e-6*math.Max(1, res.Bound) {
			t.Fatalf("%s: revised optimum %v, CoverLP optimum %v", name, z, res.Bound)
		}
	}
}

// TestRevisedLPWarmStart is column generation's use: solve with some columns, add more, and
// re-optimize from the current basis. Each round's optimum may only fall (more columns, same
// rows), every intermediate basis must be optimal for the columns it has, and the last must
// reach the optimum of solving with every column from the start.
func TestRevisedLPWarmStart(t *testing.T) {
	for seed := range uint64(150) {
		rng := rand.New(rand.NewPCG(seed, 78))
		m, n := 2+rng.IntN(7), 3+rng.IntN(13)
		cv := randomCover(rng, m, n, seed%2 == 1)
		cold := mustOptimize(t, fmt.Sprintf("seed %d cold", seed), standardForm(t, cv, nil))
		perm := rng.Perm(n)
		k := rng.IntN(n) // structural columns present at the first solve, maybe none
		warm := standardForm(t, cv, perm[:k])
		last := math.Inf(1)
		for round := 0; ; round++ {
			name := fmt.Sprintf("seed %d round %d", seed, round)
			z := mustOptimize(t, name, warm) // from the last round's basis
			if z > last+1e-9*math.Max(1, last) {
				t.Fatalf("%s: adding columns raised the optimum from %v to %v", name, last, z)
			}
			last = z
			if k == n {
				break
			}
			step := 1 + rng.IntN(n-k)
			for _, j := range perm[k : k+step] {
				warm.AddCol(coverCol(cv, j))
			}
			k += step
		}
		if math.Abs(last-cold) > 1e-9*math.Max(1, cold) {
			t.Fatalf("seed %d: warm-started optimum %v, cold %v", seed, last, cold)
		}
	}
}

// TestRevisedLPDegenerate covers where a careless ratio test or pricing rule cycles or stops
// early. Beale's and Chvátal's examples (slacks first, b = (0, 0, 1)) cycle under Dantzig's
// rule; Chvátal's does with this code's tie-breaks too, so it ends only through the switch to
// Bland's rule. Then ties everywhere in a covering program.
func TestRevisedLPDegenerate(t *testing.T) {
	for _, tc := range []struct {
		name string
		cols [4][3]float64 // column j: rows 0–2
		cost [4]float64
		want float64
	}{
		{"Beale", [4][3]float64{{0.25, 0.5, 0}, {-60, -90, 0}, {-1.0 / 25, -1.0 / 50, 1}, {9, 3, 0}}, [4]float64{-0.75, 150, -1.0 / 50, 6}, -0.05},
		{"Chvátal", [4][3]float64{{0.5, 0.5, 1}, {-5.5, -1.5, 0}, {-2.5, -0.5, 0}, {9, 1, 0}}, [4]float64{-10, 57, 9, 24}, -1},
	} {
		lp := NewRevisedLP([]float64{0, 0, 1})
		for i := range 3 {
			lp.AddCol(SparseCol{Rows: []int{i}, Vals: []float64{1}})
		}
		for j, col := range tc.cols {
			lp.AddCol(dense(col[:], tc.cost[j]))
		}
		if err := lp.Start([]int{0, 1, 2}); err != nil {
			t.Fatal(err)
		}
		if z := mustOptimize(t, tc.name, lp); math.Abs(z-tc.want) > 1e-9 {
			t.Fatalf("%s: objective %v, want %v", tc.name, z, tc.want)
		}
	}

	// Three column types, each present three times at equal cost, so ratios and reduced costs
	// tie; rows 3 and 4 are equal (an optimal basis keeps a zero-valued surplus or unit
	// column); row 5 demands nothing (the starting basis is at zero level there).
	cv := &CoverLP{B: []float64{1, 1, 1, 3, 3, 0}, C: slices.Repeat([]float64{1}, 9)}
	for _, row := range [][]float64{{1, 0, 1}, {1, 1, 0}, {0, 1, 1}, {2, 2, 1}, {2, 2, 1}, {1, 1, 1}} {
		cv.A = append(cv.A, slices.Repeat(row, 3))
	}
	// By type totals x0 = x1 = 2/3, x2 = 1/3 meets rows 0, 2, 3 and 4 exactly: cost 5/3.
	if z := mustOptimize(t, "duplicated columns and rows", standardForm(t, cv, nil)); math.Abs(z-5.0/3) > 1e-9 {
		t.Fatalf("duplicated columns and rows: objective %v, want 5/3", z)
	}
}

// TestRevisedLPEdges checks the other outcomes optimize and start promise: a pivot budget that
// runs out is reported as not optimal (the caller must not read its duals as a certificate),
// an unbounded program is an error, and a basis with a repeated column is singular.
func TestRevisedLPEdges(t *testing.T) {
	cv := &CoverLP{A: [][]float64{{1, 2}, {3, 1}}, B: []float64{4, 6}, C: []float64{1, 1}}
	lp := standardForm(t, cv, nil)
	if opt, err := lp.Optimize(0); opt || err != nil {
		t.Fatalf("optimize(0) from the expensive basis = %v, %v; want false, nil", opt, err)
	}
	if opt, err := lp.Optimize(100); !opt || err != nil || math.Abs(lp.Objective()-2.8) > 1e-9 {
		t.Fatalf("optimize = %v, %v, objective %v; want optimal at 2.8", opt, err, lp.Objective())
	}

	// min −x s.t. u + x − s = 1: x and s grow together without bound.
	lp = NewRevisedLP([]float64{1})
	lp.AddCol(dense([]float64{1}, 0))
	lp.AddCol(dense([]float64{1}, -1))
	lp.AddCol(dense([]float64{-1}, 0))
	if err := lp.Start([]int{0}); err != nil {
		t.Fatal(err)
	}
	if opt, err := lp.Optimize(100); opt || err == nil {
		t.Fatalf("unbounded program: optimize = %v, %v; want an error", opt, err)
	}

	lp = NewRevisedLP([]float64{1, 1})
	lp.AddCol(SparseCol{Rows: []int{0, 1}, Vals: []float64{1, 1}})
	if err := lp.Start([]int{0, 0}); !errors.Is(err, ErrSingularBasis) {
		t.Fatalf("start with a repeated column: %v, want ErrSingularBasis", err)
	}
}
