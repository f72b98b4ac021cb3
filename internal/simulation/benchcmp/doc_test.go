// Package benchcmp benchmarks the simulations (the optimum, internal/simulation/optimal, and the
// prediction, simulation.Predict) against Karpenter's own scheduler
// (sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling) on identical pods, NodePools
// and instance types, and the disruption emulation (internal/simulation/karpenter/disruption)
// against Karpenter's own disruption and NodeClaim controllers run on the project's
// kube-apiserver (upstream_disruption_test.go). It has only test files, so the scheduler,
// the controllers and their dependencies never reach the provider binary.
//
//	go test -run '^$' -bench SolverVsUpstream ./internal/simulation/benchcmp/
//	make compare-upstream-disruption
package benchcmp
