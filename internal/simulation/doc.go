// Package simulation simulates one cluster as the simulate command and review --workloads see
// it: its NodePools and AKSNodeClasses (as the API server would hold them, defaults applied)
// and the pods of its workloads (internal/workload), in a mode: "karpenter" (what Karpenter's
// scheduler would launch) or "optimal" (the cheapest packing internal/simulation/optimal finds, with a
// lower bound), or both. It knows nothing of Terraform or of the review's files.
package simulation
