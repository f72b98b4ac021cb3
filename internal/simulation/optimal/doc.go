// Package optimal is the optimum of one provisioning round (Method "optimal"), not
// Karpenter's decision (that is the emulation's, internal/simulation.Predict): the cheapest
// packing it finds of pending pods on nodes the NodePools can launch, with a certified lower
// bound on any packing's cost (an LP relaxation, or the configuration LP by column
// generation). It takes its instance types and admissibility from the requirement analysis
// (internal/analysis), speaks internal/simmodel, and keeps its numerical kernels in
// internal/simulation/optimal/lp. It has no Terraform imports.
//
// compile.go builds the model (pods, pools, instance types as integer vectors and offering
// masks), which nothing changes afterwards; a packing (packing.go) is one placement of the
// model's pods. pack.go and variant.go pack, improve.go improves, lppack.go re-packs from the
// configuration LP (colgen.go), local.go searches locally; bound.go, boundlp.go and cgbound.go
// bound, report.go reports.
package optimal
