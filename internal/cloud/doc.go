// Package cloud is the seam between the offline analysis and a cloud's Karpenter provider:
// the interface a cloud implements (the node-class kinds it owns, decoding a node class,
// its regions and zones, its instance types as its provider derives them, its label domains
// and the launch choice of its allocation strategy) and a registry that picks the cloud
// serving a NodePool from its nodeClassRef.group.
//
// Azure (internal/cloud/aks) is the first implementation, AWS (internal/cloud/eks) the second.
// A cloud is new files in its own package plus one registration line where solvers are built
// (analysis/clouds.go); optional interfaces say what it calls things (Describer), what its
// catalog lacks for a region (Caveats) and what a simulation must assume (Assumer).
// The package holds only types and the registry: no cloud's code, no framework imports.
package cloud
