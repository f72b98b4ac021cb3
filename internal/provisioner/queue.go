package provisioner

import (
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/karpenter/pkg/utils/resources"
)

// queue is the scheduler's pod queue: largest pods first; it stops when a pod comes round
// again with the queue as long as when it was last pushed (no progress).
type queue struct {
	pods    []*corev1.Pod
	lastLen map[types.UID]int
}

func newQueue(pods []*corev1.Pod, data map[types.UID]*podData) *queue {
	// sort.Slice with Karpenter's comparator on the batch in its given order: the result,
	// ties included, is the one Karpenter's queue starts with.
	sort.Slice(pods, func(i, j int) bool {
		l, r := pods[i], pods[j]
		lr, rr := data[l.UID].requests, data[r.UID].requests
		if c := resources.Cmp(lr[corev1.ResourceCPU], rr[corev1.ResourceCPU]); c != 0 {
			return c > 0
		}
		if c := resources.Cmp(lr[corev1.ResourceMemory], rr[corev1.ResourceMemory]); c != 0 {
			return c > 0
		}
		if l.CreationTimestamp != r.CreationTimestamp {
			return l.CreationTimestamp.Before(&r.CreationTimestamp)
		}
		return l.UID < r.UID
	})
	return &queue{pods: pods, lastLen: map[types.UID]int{}}
}

func (q *queue) pop() (*corev1.Pod, bool) {
	if len(q.pods) == 0 {
		return nil, false
	}
	p := q.pods[0]
	if q.lastLen[p.UID] == len(q.pods) {
		return nil, false
	}
	q.pods = q.pods[1:]
	return p, true
}

func (q *queue) push(p *corev1.Pod) {
	q.pods = append(q.pods, p)
	q.lastLen[p.UID] = len(q.pods)
}
