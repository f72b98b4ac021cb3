package lp

import (
	"errors"
	"math"
)

// sparseCol is a column of a linear program: its nonzero rows and values, and its cost.
type SparseCol struct {
	Rows []int
	Vals []float64
	Cost float64
}

// revisedLP is the linear program
//
//	minimise c·z  subject to  A z = b,  z ≥ 0
//
// solved by the primal revised simplex method with an explicit basis inverse. Columns may be
// added between calls to optimize and the basis stays feasible, which is what column
// generation needs: the master problem grows by a few columns at a time and each re-solve
// starts where the last one stopped. The caller provides a feasible starting basis.
type RevisedLP struct {
	m     int
	b     []float64
	cols  []SparseCol
	basis []int       // column index of each row's basic variable
	binv  [][]float64 // basis inverse, m × m
	xB    []float64   // basic variable values
	since int         // pivots since the last inversion
}

var ErrSingularBasis = errors.New("singular basis")

func NewRevisedLP(b []float64) *RevisedLP {
	return &RevisedLP{m: len(b), b: b}
}

func (lp *RevisedLP) AddCol(c SparseCol) int {
	lp.cols = append(lp.cols, c)
	return len(lp.cols) - 1
}

// start makes the given columns (one per row) the basis; their values must be ≥ 0.
func (lp *RevisedLP) Start(basis []int) error {
	lp.basis = append([]int(nil), basis...)
	return lp.invert()
}

// invert recomputes the basis inverse by Gauss-Jordan elimination with partial pivoting, and
// the basic values from it; done at the start and periodically, against rounding drift.
func (lp *RevisedLP) invert() error {
	m := lp.m
	a := make([][]float64, m)
	inv := make([][]float64, m)
	for i := range a {
		a[i] = make([]float64, m)
		inv[i] = make([]float64, m)
		inv[i][i] = 1
	}
	for k, j := range lp.basis {
		c := lp.cols[j]
		for t, r := range c.Rows {
			a[r][k] = c.Vals[t]
		}
	}
	for k := 0; k < m; k++ {
		p := k
		for i := k + 1; i < m; i++ {
			if math.Abs(a[i][k]) > math.Abs(a[p][k]) {
				p = i
			}
		}
		if math.Abs(a[p][k]) < 1e-12 {
			return ErrSingularBasis
		}
		a[k], a[p] = a[p], a[k]
		inv[k], inv[p] = inv[p], inv[k]
		f := 1 / a[k][k]
		scaleRow(a[k], f)
		scaleRow(inv[k], f)
		for i := 0; i < m; i++ {
			if i == k || a[i][k] == 0 {
				continue
			}
			g := a[i][k]
			axpy(a[i], a[k], -g)
			axpy(inv[i], inv[k], -g)
		}
	}
	lp.binv = inv
	lp.xB = make([]float64, m)
	for i := range lp.xB {
		var s float64
		for k, v := range lp.b {
			s += inv[i][k] * v
		}
		lp.xB[i] = math.Max(s, 0)
	}
	lp.since = 0
	return nil
}

func scaleRow(r []float64, f float64) {
	for i := range r {
		r[i] *= f
	}
}

func axpy(dst, src []float64, f float64) {
	for i, v := range src {
		if v != 0 {
			dst[i] += f * v
		}
	}
}

// duals returns y = c_B B⁻¹, the row prices of the current basis.
func (lp *RevisedLP) Duals() []float64 {
	y := make([]float64, lp.m)
	for i, j := range lp.basis {
		if c := lp.cols[j].Cost; c != 0 {
			axpy(y, lp.binv[i], c)
		}
	}
	return y
}

func (lp *RevisedLP) ReducedCost(j int, y []float64) float64 {
	c := lp.cols[j]
	d := c.Cost
	for t, r := range c.Rows {
		d -= y[r] * c.Vals[t]
	}
	return d
}

// objective is c_B·x_B.
func (lp *RevisedLP) Objective() float64 {
	var z float64
	for i, j := range lp.basis {
		z += lp.cols[j].Cost * lp.xB[i]
	}
	return z
}

const rlpEps = 1e-9

// optimize pivots until no column has a negative reduced cost (true) or maxPivots is reached
// (false). Dantzig's rule picks the entering column; after a run of pivots that do not lower
// the objective it switches to Bland's rule, which cannot cycle.
func (lp *RevisedLP) Optimize(maxPivots int) (bool, error) {
	inBasis := make([]bool, len(lp.cols))
	for _, j := range lp.basis {
		inBasis[j] = true
	}
	stall, last := 0, math.Inf(1)
	w := make([]float64, lp.m)
	for piv := 0; piv < maxPivots; piv++ {
		y := lp.Duals()
		bland := stall > 50
		q, best := -1, -rlpEps
		for j := range lp.cols {
			if inBasis[j] {
				continue
			}
			if d := lp.ReducedCost(j, y); d < best {
				q, best = j, d
				if bland {
					break
				}
			}
		}
		if q < 0 {
			return true, nil
		}
		// w = B⁻¹ A_q
		c := lp.cols[q]
		for i := range w {
			var s float64
			for t, r := range c.Rows {
				s += lp.binv[i][r] * c.Vals[t]
			}
			w[i] = s
		}
		r, ratio := -1, math.Inf(1)
		for i, wi := range w {
			if wi <= 1e-10 {
				continue
			}
			t := lp.xB[i] / wi
			if r < 0 || t < ratio-1e-12 || (t <= ratio+1e-12 && (bland && lp.basis[i] < lp.basis[r] || !bland && wi > w[r])) {
				ratio, r = math.Min(ratio, t), i
			}
		}
		if r < 0 {
			return false, errors.New("linear program is unbounded")
		}
		theta := lp.xB[r] / w[r]
		for i := range lp.xB {
			if i != r {
				lp.xB[i] = math.Max(0, lp.xB[i]-theta*w[i])
			}
		}
		lp.xB[r] = theta
		pr := lp.binv[r]
		scaleRow(pr, 1/w[r])
		for i := range lp.binv {
			if i != r && w[i] != 0 {
				axpy(lp.binv[i], pr, -w[i])
			}
		}
		inBasis[lp.basis[r]] = false
		inBasis[q] = true
		lp.basis[r] = q
		if lp.since++; lp.since >= 100 {
			if err := lp.invert(); err != nil {
				return false, err
			}
		}
		if z := lp.Objective(); z < last-1e-9*math.Max(1, math.Abs(last)) {
			last, stall = z, 0
		} else {
			stall++
		}
	}
	return false, nil
}

// Basis is the column index of each row's basic variable (read-only).
func (lp *RevisedLP) Basis() []int { return lp.basis }

// BasicValues are the basic variables' values, row by row (read-only).
func (lp *RevisedLP) BasicValues() []float64 { return lp.xB }
