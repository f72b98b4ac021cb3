// Package optimal is the optimum of one provisioning round (Method "optimal"), not
// Karpenter's decision (that is the emulation's, internal/simulation.Predict): the cheapest
// packing it finds of pending pods on nodes the NodePools can launch, with a certified lower
// bound on any packing's cost (an LP relaxation, or the configuration LP by column
// generation). It takes its instance types and admissibility from the requirement analysis
// (internal/analysis), speaks internal/simmodel, and keeps its numerical kernels in
// internal/simulation/optimal/lp. It has no Terraform imports.
package optimal
