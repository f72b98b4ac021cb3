// Package replicaset emulates which pods kube-controller-manager's ReplicaSet controller
// deletes when a Deployment or ReplicaSet is scaled down (Kubernetes v1.36,
// pkg/controller/replicaset and pkg/controller). A scale-down names a number of replicas, not
// pods: the controller ranks the ReplicaSet's active pods and deletes the first ones.
//
// The ranking, first difference wins: unscheduled before scheduled; Pending before Unknown
// before Running; not ready before ready; lower controller.kubernetes.io/pod-deletion-cost
// first; more active pods of the same workload on the pod's node first; ready for less time
// first; more container restarts first; newer first. Times compare by their base-2
// logarithmic rank against the controller's clock (LogarithmicScaleDown, GA since v1.31),
// and within one rank by UID.
//
// Pods equal in every criterion are a tie: the controller sorts its informer's list, whose
// order is random. PodsToDelete breaks such ties by namespace and name and says that it met
// one.
//
// File map (this package -> upstream, k8s.io/kubernetes v1.36.3):
//
//	controller_utils.go -> pkg/controller/controller_utils.go (ActivePodsWithRanks.Less,
//	                       IsPodActive, logarithmicRankDiff, afterOrZero, podReadyTime,
//	                       maxContainerRestarts) and pkg/apis/core/helper/helpers.go
//	                       (GetDeletionCostFromPodAnnotations)
//	replica_set.go      -> pkg/controller/replicaset/replica_set.go (getPodsToDelete,
//	                       getPodsRankedByRelatedPodsOnSameNode)
package replicaset
