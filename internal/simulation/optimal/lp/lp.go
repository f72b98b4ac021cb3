package lp

import (
	"errors"
	"math"
)

// coverLP is the linear program
//
//	minimise c·x  subject to  A x ≥ b,  x ≥ 0
//
// with c ≥ 0: node types (columns) priced c_j that must together cover demands (rows). A row
// may be negative, which expresses a ≤ constraint such as a NodePool limit. It is solved
// through its dual, max b·y s.t. Aᵀy ≤ c, y ≥ 0, whose origin is feasible because c ≥ 0, so
// one simplex phase suffices and the tableau has one column per row of A: a few resources, a
// few pod groups and limits, against up to a few thousand node types.
type CoverLP struct {
	A [][]float64 // rows × columns
	B []float64
	C []float64
}

// lpResult is an optimal solution. Bound is b·y for a dual solution y scaled to satisfy Aᵀy ≤ c
// exactly, so it is a lower bound on the primal optimum whatever rounding the simplex did.
type Result struct {
	Bound float64
	X     []float64 // primal solution, one per column
	Y     []float64 // dual prices, one per row
}

var ErrInfeasible = errors.New("the demands cannot be covered (the limits are too tight)")

const lpEps = 1e-9

func (lp *CoverLP) Solve() (*Result, error) {
	m, n := len(lp.B), len(lp.C)
	if m == 0 {
		return &Result{X: make([]float64, n)}, nil
	}
	// Rows are scaled to unit magnitude so that one tolerance suits cores, bytes and pods.
	scale := make([]float64, m)
	for i, row := range lp.A {
		mx := math.Abs(lp.B[i])
		for _, v := range row {
			mx = math.Max(mx, math.Abs(v))
		}
		scale[i] = 1
		if mx > 0 {
			scale[i] = 1 / mx
		}
	}
	// Condensed dictionary: row j (< n) is the dual slack s_j = D[j][0] + Σ_k D[j][k+1]·N_k over
	// the nonbasic variables N_k; row n is the objective. Labels 0..m-1 are the dual variables
	// y_i, labels m..m+n-1 the slacks.
	D := make([][]float64, n+1)
	for j := 0; j < n; j++ {
		D[j] = make([]float64, m+1)
		D[j][0] = lp.C[j]
		for i := 0; i < m; i++ {
			D[j][i+1] = -lp.A[i][j] * scale[i]
		}
	}
	D[n] = make([]float64, m+1)
	for i := 0; i < m; i++ {
		D[n][i+1] = lp.B[i] * scale[i]
	}
	rowLabel := make([]int, n)
	for j := range rowLabel {
		rowLabel[j] = m + j
	}
	colLabel := make([]int, m)
	for i := range colLabel {
		colLabel[i] = i
	}
	// Dantzig's rule, then Bland's (which cannot cycle) if progress stalls on degenerate pivots.
	maxIter := 50 * (n + m)
	for iter := 0; ; iter++ {
		bland := iter > maxIter
		if iter > 4*maxIter {
			return nil, errors.New("linear program did not converge")
		}
		k := -1
		for c := 1; c <= m; c++ {
			if D[n][c] <= lpEps {
				continue
			}
			if k < 0 || (bland && colLabel[c-1] < colLabel[k-1]) || (!bland && D[n][c] > D[n][k]) {
				k = c
			}
		}
		if k < 0 {
			break
		}
		r := -1
		best := math.Inf(1)
		for j := 0; j < n; j++ {
			if D[j][k] >= -lpEps {
				continue
			}
			ratio := D[j][0] / -D[j][k]
			if r < 0 || ratio < best-lpEps || (ratio <= best+lpEps && rowLabel[j] < rowLabel[r]) {
				best = math.Min(best, ratio)
				r = j
			}
		}
		if r < 0 {
			return nil, ErrInfeasible // the dual is unbounded
		}
		pivot(D, r, k)
		rowLabel[r], colLabel[k-1] = colLabel[k-1], rowLabel[r]
	}
	res := &Result{X: make([]float64, n), Y: make([]float64, m)}
	for j, l := range rowLabel {
		if l < m {
			res.Y[l] = math.Max(0, D[j][0]) * scale[l]
		}
	}
	for c, l := range colLabel {
		if l >= m {
			res.X[l-m] = math.Max(0, -D[n][c+1])
		}
	}
	res.Bound = lp.Certify(res.Y)
	return res, nil
}

// pivot exchanges the basic variable of row r with the nonbasic variable of column k.
func pivot(D [][]float64, r, k int) {
	p := D[r][k]
	row := D[r]
	for l := range row {
		if l == k {
			row[l] = 1 / p
		} else {
			row[l] = -row[l] / p
		}
	}
	for i := range D {
		if i == r {
			continue
		}
		f := D[i][k]
		if f == 0 {
			continue
		}
		di := D[i]
		for l := range di {
			if l == k {
				di[l] = f * row[k]
			} else {
				di[l] += f * row[l]
			}
		}
	}
}

// certify scales y down until Aᵀy ≤ c holds in floating point and returns b·y, a valid lower
// bound on every feasible x by weak duality.
func (lp *CoverLP) Certify(y []float64) float64 {
	f := 1.0
	for j, cj := range lp.C {
		var s float64
		for i := range y {
			s += lp.A[i][j] * y[i]
		}
		if s > cj {
			f = math.Min(f, cj/s)
		}
	}
	var bound float64
	for i := range y {
		bound += lp.B[i] * y[i] * f
	}
	return math.Max(0, bound*(1-1e-12))
}
