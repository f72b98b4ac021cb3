// Package simmodel is what a simulation of one provisioning round takes and gives, whichever
// method produced it: the workloads (sets of identical pending pods) and NodePools it takes,
// and the Simulation it returns (nodes, pods per node, cost, pending pods, and for the optimum
// its lower bound). The Karpenter emulation's glue (internal/simulation.Predict, Method
// "karpenter") and the optimum (internal/simulation/optimal, Method "optimal") both speak it, so neither
// imports the other and reports render either alike.
package simmodel
