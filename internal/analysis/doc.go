// Package analysis is the requirement and admissibility analysis of NodePools, as Karpenter
// keeps its requirement algebra (sigs.k8s.io/karpenter/pkg/scheduling) apart from its
// scheduler: offline, what Karpenter on AKS could launch for one NodePool and at what cost
// (admissible instance types per region, zone and capacity type; limits, minValues, labels,
// node-class shape, disruption budgets and the Karpenter release it targets), findings with
// stable codes, a summary, and the checks across the NodePools of one cluster. It holds the
// per-region, per-node-class cache of the instance types that each cloud (internal/cloud;
// Azure: internal/cloud/aks) derives from its embedded catalog, from which the simulations (internal/simulation/optimal and the Karpenter
// emulation's glue in internal/simulation) take theirs. It simulates nothing and imports no
// simulation package, and has no Terraform imports.
//
// Per-region work is done once per region and node class: the instance types, their
// requirement index (index.go) and, per offering pattern (which offering classes a pool's
// requirements accept), every type's admitted offerings with their prices per capacity type
// (view.go). A pool's analysis then reads them per type, not per offering.
package analysis
