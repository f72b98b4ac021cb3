package replicaset

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

var now = time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)

// replica is a running, ready pod named name on node (unscheduled when node is ""), created
// age ago.
func replica(name, node string, age time.Duration) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), CreationTimestamp: metav1.NewTime(now.Add(-age))},
		Spec:       corev1.PodSpec{NodeName: node},
		Status:     corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}},
	}
	if node == "" {
		p.Status = corev1.PodStatus{Phase: corev1.PodPending}
	}
	return p
}

func names(pods []*corev1.Pod) string {
	out := make([]string, len(pods))
	for i, p := range pods {
		out[i] = p.Name
	}
	return strings.Join(out, ",")
}

func TestPodsToDeleteRanksAheadOfNameOrder(t *testing.T) {
	hour := time.Hour
	cases := []struct {
		name  string
		pods  []*corev1.Pod
		diff  int
		want  string
		tied  bool
		setup func([]*corev1.Pod)
	}{
		{name: "unscheduled first", diff: 1, want: "web-2",
			pods: []*corev1.Pod{replica("web-0", "n1", hour), replica("web-1", "n2", hour), replica("web-2", "", hour)}},
		{name: "pending before running", diff: 1, want: "web-1",
			pods:  []*corev1.Pod{replica("web-0", "n1", hour), replica("web-1", "n2", hour)},
			setup: func(p []*corev1.Pod) { p[1].Status.Phase = corev1.PodPending }},
		{name: "not ready before ready", diff: 1, want: "web-1",
			pods:  []*corev1.Pod{replica("web-0", "n1", hour), replica("web-1", "n2", hour)},
			setup: func(p []*corev1.Pod) { p[1].Status.Conditions = nil }},
		{name: "lower deletion cost first", diff: 1, want: "web-1",
			pods: []*corev1.Pod{replica("web-0", "n1", hour), replica("web-1", "n2", hour)},
			setup: func(p []*corev1.Pod) {
				p[0].Annotations = map[string]string{corev1.PodDeletionCost: "10"}
			}},
		{name: "an invalid deletion cost counts as 0", diff: 1, want: "web-1",
			pods: []*corev1.Pod{replica("web-0", "n1", hour), replica("web-1", "n2", hour)},
			setup: func(p []*corev1.Pod) {
				p[0].Annotations = map[string]string{corev1.PodDeletionCost: "5"}
				p[1].Annotations = map[string]string{corev1.PodDeletionCost: "+9"}
			}},
		{name: "more replicas on the node first", diff: 2, want: "web-1,web-2",
			pods: []*corev1.Pod{replica("web-0", "n1", hour), replica("web-1", "n2", hour), replica("web-2", "n2", hour)}},
		{name: "newer first across logarithmic ranks", diff: 1, want: "web-1",
			pods: []*corev1.Pod{replica("web-0", "n1", 4*hour), replica("web-1", "n2", hour)}},
		{name: "same logarithmic rank: UID order", diff: 1, want: "web-1",
			pods:  []*corev1.Pod{replica("web-0", "n1", hour+time.Minute), replica("web-1", "n2", hour)},
			setup: func(p []*corev1.Pod) { p[0].UID = "z" }},
		{name: "more restarts first", diff: 1, want: "web-1",
			pods: []*corev1.Pod{replica("web-0", "n1", hour), replica("web-1", "n2", hour)},
			setup: func(p []*corev1.Pod) {
				p[1].Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "main", RestartCount: 2}}
			}},
		{name: "equal pods tie, broken by name", diff: 1, want: "web-0", tied: true,
			pods: []*corev1.Pod{replica("web-1", "n2", hour), replica("web-0", "n1", hour)}},
		{name: "a tie among the pods kept only is no tie", diff: 1, want: "web-2",
			pods: []*corev1.Pod{replica("web-0", "n1", hour), replica("web-1", "n2", hour), replica("web-2", "", hour)}},
		{name: "every pod goes", diff: 5, want: "web-1,web-0",
			pods: []*corev1.Pod{replica("web-1", "n2", hour), replica("web-0", "n1", hour)}},
		{name: "none goes", diff: 0, want: "",
			pods: []*corev1.Pod{replica("web-0", "n1", hour)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != nil {
				c.setup(c.pods)
			}
			got, tied := PodsToDelete(c.pods, c.pods, c.diff, now)
			if names(got) != c.want || tied != c.tied {
				t.Errorf("PodsToDelete = %s (tied %v), want %s (tied %v)", names(got), tied, c.want, c.tied)
			}
		})
	}
}

// TestPodsToDeleteCountsRelatedPods ranks by the related pods on a node, which include pods
// of another ReplicaSet of the same Deployment, and not those being deleted.
func TestPodsToDeleteCountsRelatedPods(t *testing.T) {
	a, b := replica("web-a", "n1", time.Hour), replica("web-b", "n2", time.Hour)
	old := replica("web-old", "n2", time.Hour)
	gone := replica("web-gone", "n1", time.Hour)
	gone.DeletionTimestamp = &metav1.Time{Time: now}
	done := replica("web-done", "n1", time.Hour)
	done.Status.Phase = corev1.PodSucceeded
	got, tied := PodsToDelete([]*corev1.Pod{a, b}, []*corev1.Pod{a, b, old, gone, done}, 1, now)
	if names(got) != "web-b" || tied {
		t.Errorf("PodsToDelete = %s (tied %v), want web-b, which shares n2 with an active related pod", names(got), tied)
	}
}
