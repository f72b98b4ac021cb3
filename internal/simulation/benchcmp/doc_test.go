// Package benchcmp benchmarks the simulations (the optimum, internal/simulation/optimal, and the
// prediction, simulation.Predict) against Karpenter's own scheduler
// (sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling) on identical pods, NodePools
// and instance types. It has only test files, so the scheduler and its dependencies never
// reach the provider binary.
//
//	go test -run '^$' -bench SolverVsUpstream ./internal/simulation/benchcmp/
package benchcmp
