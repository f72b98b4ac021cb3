package lp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestCoverLPHandChecked(t *testing.T) {
	// Two node types: 4 cpu/16 GiB for 0.2, 8 cpu/16 GiB for 0.3. Demand 16 cpu, 32 GiB:
	// two of the second (0.6) beat four of the first (0.8); the LP optimum is x2 = 2.
	lp := &CoverLP{
		A: [][]float64{{4, 8}, {16, 16}},
		B: []float64{16, 32},
		C: []float64{0.2, 0.3},
	}
	res, err := lp.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.Bound-0.6) > 1e-9 || math.Abs(res.X[1]-2) > 1e-9 || res.X[0] > 1e-9 {
		t.Fatalf("bound %v x %v, want 0.6 and x = (0, 2)", res.Bound, res.X)
	}
	// A mix is optimal when one type is cpu-rich and the other memory-rich:
	// (8 cpu, 16 GiB, 0.4) and (2 cpu, 16 GiB, 0.15); demand 16 cpu and 64 GiB needs
	// 8x+2y ≥ 16, 16x+16y ≥ 64 → x = 4/3, y = 8/3: 0.5333 + 0.4 = 0.9333.
	lp = &CoverLP{A: [][]float64{{8, 2}, {16, 16}}, B: []float64{16, 64}, C: []float64{0.4, 0.15}}
	res, err = lp.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if want := 0.4*4/3 + 0.15*8/3; math.Abs(res.Bound-want) > 1e-9 {
		t.Fatalf("bound %v, want %v", res.Bound, want)
	}
}

func TestCoverLPInfeasibleLimit(t *testing.T) {
	// Demand 16 cpu but a limit row -x·8 ≥ -8 allows one 8-cpu node only.
	lp := &CoverLP{A: [][]float64{{8}, {-8}}, B: []float64{16, -8}, C: []float64{1}}
	if _, err := lp.Solve(); !errors.Is(err, ErrInfeasible) {
		t.Fatalf("got %v, want infeasible", err)
	}
}

// TestCoverLPOptimality checks random covering programs: the primal solution is feasible and
// its cost equals the certified dual bound, which proves both optimal.
func TestCoverLPOptimality(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		m, n := 1+rng.IntN(6), 1+rng.IntN(40)
		lp := &CoverLP{A: make([][]float64, m), B: make([]float64, m), C: make([]float64, n)}
		for i := range lp.A {
			lp.A[i] = make([]float64, n)
			for j := range lp.A[i] {
				if rng.IntN(4) > 0 {
					lp.A[i][j] = float64(rng.IntN(64)) * math.Pow(2, float64(rng.IntN(30)))
				}
			}
			lp.B[i] = float64(rng.IntN(1000)) * math.Pow(2, float64(rng.IntN(30)))
		}
		for j := range lp.C {
			lp.C[j] = 0.01 + rng.Float64()*5
		}
		res, err := lp.Solve()
		if err != nil {
			// Infeasible only when some row has demand but no column supplies it.
			for i := range lp.A {
				if lp.B[i] > 0 && maxOf(lp.A[i]) == 0 {
					goto next
				}
			}
			t.Fatalf("trial %d: %v", trial, err)
		}
		{
			var cost float64
			for j, x := range res.X {
				cost += lp.C[j] * x
			}
			for i := range lp.A {
				var s float64
				for j, x := range res.X {
					s += lp.A[i][j] * x
				}
				if s < lp.B[i]*(1-1e-7)-1e-9 {
					t.Fatalf("trial %d: row %d covered %v < %v", trial, i, s, lp.B[i])
				}
			}
			if res.Bound > cost*(1+1e-9)+1e-12 || res.Bound < cost*(1-1e-6)-1e-9 {
				t.Fatalf("trial %d: bound %v vs primal cost %v", trial, res.Bound, cost)
			}
		}
	next:
	}
}

func maxOf(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}
