// Package lp holds the numerical kernels of the optimum (internal/simulation/optimal), which know nothing
// of pods, nodes or Karpenter: a dense simplex for covering LPs solved through their dual
// (CoverLP, whose bound is certified whatever the rounding), a revised simplex whose columns can
// be added between solves (RevisedLP, the master problem of column generation), and the
// multi-dimensional bounded knapsack that prices new columns (Knapsack: greedy, LP relaxation,
// branch and bound, and a dynamic program over rounded weights).
package lp
