// Package cloud is the seam between the offline analysis and a cloud's Karpenter provider:
// the interface a cloud implements (the node-class kinds it owns, decoding a node class,
// its regions and zones, its instance types as its provider derives them, its label domains
// and the launch choice of its allocation strategy) and a registry that picks the cloud
// serving a NodePool from its nodeClassRef.group.
//
// Azure (internal/cloud/aks) is the first implementation. A second cloud is new files in its
// own package plus one registration line where solvers are built (solver/clouds.go).
// The package holds only types and the registry: no cloud's code, no framework imports.
package cloud
