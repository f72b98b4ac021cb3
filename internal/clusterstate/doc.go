// Package clusterstate reads the state of a running cluster, the input a simulation starts
// from instead of an empty cluster: its Nodes, Karpenter's NodeClaims, the Pods (bound and
// pending), PodDisruptionBudgets, NodePools and node classes.
//
// Two sources give the same Snapshot:
//   - Read: the output of `kubectl get nodes,nodeclaims,pods,pdb -A -o yaml` (or -o json), a
//     v1 List, or a stream of such Lists and plain objects. Items are decoded one at a time,
//     so memory grows with the objects kept, not with the file.
//   - List: a read-only listing through a client (get/list only), in pages.
//
// A snapshot may come from a production cluster, so only what scheduling and disruption
// read is kept: of a Pod its labels, annotations, owners, requests, host ports and
// scheduling constraints; of a Node its labels, annotations, taints, capacity and
// allocatable. Container environments, commands, images and volumes never leave the reader,
// nor does kubectl's last-applied-configuration annotation, which repeats them.
package clusterstate
