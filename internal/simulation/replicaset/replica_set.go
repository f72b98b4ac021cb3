package replicaset

import (
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// PodsToDelete is getPodsToDelete: the diff pods of filtered (one ReplicaSet's active pods)
// the controller deletes to scale it down by diff. Related are the pods of every ReplicaSet
// of the same Deployment (getIndirectlyRelatedPods); a pod's rank counts the active ones on
// its node. Now is the controller's clock. Tied says the pods deleted and the pods kept
// include two the ranking cannot tell apart, so that which of them goes is random.
func PodsToDelete(filtered, related []*corev1.Pod, diff int, now time.Time) (victims []*corev1.Pod, tied bool) {
	diff = min(max(diff, 0), len(filtered))
	pods := append([]*corev1.Pod(nil), filtered...)
	if diff == len(pods) {
		// Upstream does not sort when every pod goes.
		return pods, false
	}
	// The informer's order, which upstream sorts, is random: name order stands for it.
	sort.SliceStable(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		return pods[i].Name < pods[j].Name
	})
	ranked := rankedByRelatedPodsOnSameNode(pods, related, now)
	sort.Stable(ranked)
	if diff > 0 && !ranked.Less(diff-1, diff) && !ranked.Less(diff, diff-1) {
		tied = true
	}
	return ranked.Pods[:diff], tied
}

// rankedByRelatedPodsOnSameNode is getPodsRankedByRelatedPodsOnSameNode: each pod ranked by
// the active related pods on its node.
func rankedByRelatedPodsOnSameNode(pods, related []*corev1.Pod, now time.Time) activePodsWithRanks {
	onNode := map[string]int{}
	for _, p := range related {
		if isPodActive(p) {
			onNode[p.Spec.NodeName]++
		}
	}
	ranks := make([]int, len(pods))
	for i, p := range pods {
		ranks[i] = onNode[p.Spec.NodeName]
	}
	return activePodsWithRanks{Pods: pods, Rank: ranks, Now: now}
}
