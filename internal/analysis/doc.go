// Package analysis is the requirement and admissibility analysis of NodePools, offline: what
// Karpenter could launch for one NodePool on its cloud, and at what cost. It covers admissible
// instance types per region, zone and capacity type, limits, minValues, labels, node-class
// shape, disruption budgets and the targeted Karpenter release, and the checks across the
// pools of one cluster, each a finding with a stable code. It is in the domain, below the
// simulation, as Karpenter keeps its requirement algebra (pkg/scheduling) apart from its
// scheduler. It caches the instance types each cloud (internal/cloud) derives per region and
// node class, and the simulations read that cache. It imports no simulation package and no
// Terraform library.
//
// Per-region work is done once per region and node class: the instance types, their
// requirement index (index.go) and, per offering pattern (which offering classes a pool's
// requirements accept), every type's admitted offerings with their prices per capacity type
// (view.go). A pool's analysis then reads them per type, not per offering.
package analysis
