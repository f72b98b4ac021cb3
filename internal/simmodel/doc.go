// Package simmodel is what a simulation of one provisioning round takes and gives, whichever
// method produced it. It takes workloads (sets of identical pending pods) and NodePools. It
// returns a Simulation: nodes, pods per node, cost, pending pods, and for the optimum its
// lower bound. The Karpenter emulation's glue (internal/simulation.Predict, Method
// "karpenter") and the optimum (internal/simulation/optimal, Method "optimal") both speak it.
// So neither imports the other, and reports render either alike.
package simmodel
