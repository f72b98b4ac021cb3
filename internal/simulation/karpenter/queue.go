package karpenter

import (
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/karpenter/pkg/utils/resources"
)

// queue is the scheduler's pod queue, largest pods first. It stops when a pod comes round
// again with the queue as long as when it was last pushed: no progress was made.
type queue struct {
	pods    []*corev1.Pod
	lastLen map[types.UID]int
}

func newQueue(pods []*corev1.Pod, data map[types.UID]*podData) *queue {
	// sort.Slice with Karpenter's comparator on the batch in its given order gives, ties
	// included, the order Karpenter's queue starts with. The pods are sorted with their
	// requests beside them, since the same comparisons give the same permutation. cpu and
	// memory compare as integers when both are whole milli-units.
	type entry struct {
		pod *corev1.Pod
		pd  *podData
	}
	es := make([]entry, len(pods))
	for i, p := range pods {
		es[i] = entry{p, data[p.UID]}
	}
	cmp := func(l, r *podData, i int, name corev1.ResourceName) int {
		if l.requestsOK && r.requestsOK {
			switch a, b := l.requestsV[i], r.requestsV[i]; {
			case a < b:
				return -1
			case a > b:
				return 1
			}
			return 0
		}
		return resources.Cmp(l.requests[name], r.requests[name])
	}
	sort.Slice(es, func(i, j int) bool {
		l, r := es[i], es[j]
		if c := cmp(l.pd, r.pd, 0, corev1.ResourceCPU); c != 0 {
			return c > 0
		}
		if c := cmp(l.pd, r.pd, 1, corev1.ResourceMemory); c != 0 {
			return c > 0
		}
		if l.pod.CreationTimestamp != r.pod.CreationTimestamp {
			return l.pod.CreationTimestamp.Before(&r.pod.CreationTimestamp)
		}
		return l.pod.UID < r.pod.UID
	})
	for i, e := range es {
		pods[i] = e.pod
	}
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
