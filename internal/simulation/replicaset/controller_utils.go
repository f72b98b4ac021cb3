package replicaset

import (
	"math"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// podPhaseToOrdinal orders the phases a scale-down prefers to delete.
var podPhaseToOrdinal = map[corev1.PodPhase]int{corev1.PodPending: 0, corev1.PodUnknown: 1, corev1.PodRunning: 2}

// activePodsWithRanks is ActivePodsWithRanks: pods sorted so that the first are deleted
// first. Rank is, per pod, how many related active pods share its node.
type activePodsWithRanks struct {
	Pods []*corev1.Pod
	Rank []int
	Now  time.Time
}

func (s activePodsWithRanks) Len() int { return len(s.Pods) }

func (s activePodsWithRanks) Swap(i, j int) {
	s.Pods[i], s.Pods[j] = s.Pods[j], s.Pods[i]
	s.Rank[i], s.Rank[j] = s.Rank[j], s.Rank[i]
}

// Less is ActivePodsWithRanks.Less with the PodDeletionCost (beta, on by default) and
// LogarithmicScaleDown (GA) gates on.
func (s activePodsWithRanks) Less(i, j int) bool {
	pi, pj := s.Pods[i], s.Pods[j]
	// 1. Unassigned < assigned.
	if pi.Spec.NodeName != pj.Spec.NodeName && (pi.Spec.NodeName == "" || pj.Spec.NodeName == "") {
		return pi.Spec.NodeName == ""
	}
	// 2. Pending < Unknown < Running.
	if podPhaseToOrdinal[pi.Status.Phase] != podPhaseToOrdinal[pj.Status.Phase] {
		return podPhaseToOrdinal[pi.Status.Phase] < podPhaseToOrdinal[pj.Status.Phase]
	}
	// 3. Not ready < ready.
	if isPodReady(pi) != isPodReady(pj) {
		return !isPodReady(pi)
	}
	// 4. Lower deletion cost < higher.
	if ci, cj := deletionCost(pi), deletionCost(pj); ci != cj {
		return ci < cj
	}
	// 5. More co-located related pods < fewer.
	if s.Rank[i] != s.Rank[j] {
		return s.Rank[i] > s.Rank[j]
	}
	// 6. Ready for less time < more.
	if isPodReady(pi) && isPodReady(pj) {
		ri, rj := podReadyTime(pi), podReadyTime(pj)
		if !ri.Equal(rj) {
			if s.Now.IsZero() || ri.IsZero() || rj.IsZero() {
				return afterOrZero(ri, rj)
			}
			if d := logarithmicRankDiff(ri, rj, s.Now); d != 0 {
				return d < 0
			}
			return pi.UID < pj.UID
		}
	}
	// 7. More container restarts < fewer.
	if res := compareMaxContainerRestarts(pi, pj); res != nil {
		return *res
	}
	// 8. Newer < older (an empty creation time first).
	ti, tj := pi.CreationTimestamp.Time, pj.CreationTimestamp.Time
	if !ti.Equal(tj) {
		if s.Now.IsZero() || ti.IsZero() || tj.IsZero() {
			return afterOrZero(ti, tj)
		}
		if d := logarithmicRankDiff(ti, tj, s.Now); d != 0 {
			return d < 0
		}
		return pi.UID < pj.UID
	}
	return false
}

// isPodActive is IsPodActive: not finished and not being deleted.
func isPodActive(p *corev1.Pod) bool {
	return p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed && p.DeletionTimestamp == nil
}

// isPodReady is podutil.IsPodReady: the Ready condition is True.
func isPodReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// podReadyTime is when the pod's Ready condition turned True (zero when not ready).
func podReadyTime(p *corev1.Pod) time.Time {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
			return c.LastTransitionTime.Time
		}
	}
	return time.Time{}
}

// afterOrZero says t1 is after t2, a zero time counting as after any other.
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

// logarithmicRankDiff is the difference of the two times' base-2 logarithmic ranks of age
// against now (-1 for a time not before now).
func logarithmicRankDiff(t1, t2, now time.Time) int64 {
	r1, r2 := int64(-1), int64(-1)
	if d := now.Sub(t1); d > 0 {
		r1 = int64(math.Log2(float64(d)))
	}
	if d := now.Sub(t2); d > 0 {
		r2 = int64(math.Log2(float64(d)))
	}
	return r1 - r2
}

// deletionCost is GetDeletionCostFromPodAnnotations: the annotation's int32, 0 when absent
// or invalid (a leading "+" or zero is invalid).
func deletionCost(p *corev1.Pod) int32 {
	v, ok := p.Annotations[corev1.PodDeletionCost]
	if !ok || !validFirstDigit(v) {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

func validFirstDigit(s string) bool {
	if s == "" {
		return false
	}
	return s[0] == '-' || s == "0" || (s[0] >= '1' && s[0] <= '9')
}

// maxContainerRestarts is the most restarts of a regular container and of a sidecar (an init
// container that restarts always).
func maxContainerRestarts(p *corev1.Pod) (regular, sidecar int) {
	for _, c := range p.Status.ContainerStatuses {
		regular = max(regular, int(c.RestartCount))
	}
	sidecars := map[string]bool{}
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			sidecars[c.Name] = true
		}
	}
	for _, c := range p.Status.InitContainerStatuses {
		if sidecars[c.Name] {
			sidecar = max(sidecar, int(c.RestartCount))
		}
	}
	return regular, sidecar
}

// compareMaxContainerRestarts says pi restarted more (true), less (false) or as often (nil).
func compareMaxContainerRestarts(pi, pj *corev1.Pod) *bool {
	ri, si := maxContainerRestarts(pi)
	rj, sj := maxContainerRestarts(pj)
	if ri != rj {
		res := ri > rj
		return &res
	}
	if si != sj {
		res := si > sj
		return &res
	}
	return nil
}
