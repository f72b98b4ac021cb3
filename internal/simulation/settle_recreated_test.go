package simulation

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A drift evicts every pod, and each comes back as a new pod (disruption's recreate): the
// steady state still counts each new pod under the workload of the pod it replaces (here each
// pod is its own workload: they have no owner), not under the first workload.
func TestSettleCountsRecreatedPodsUnderTheirWorkload(t *testing.T) {
	var pods []*corev1.Pod
	for _, app := range []string{"web", "db"} {
		for i := range 3 {
			p := pod(fmt.Sprintf("%s-%d", app, i), "3", "8Gi")
			p.Labels = map[string]string{"app": app}
			p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				TopologyKey: corev1.LabelHostname, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}}}}}
			pods = append(pods, p)
		}
	}
	before := settleInput(t, nil, pods)
	after := settleInput(t, map[string]any{"team": "web"}, pods)
	st, err := Settle(testSolver, SettleInput{Before: before, After: &after})
	if err != nil {
		t.Fatal(err)
	}
	counts := func(v *SteadyState) map[string]int {
		out := map[string]int{}
		for _, n := range v.Nodes {
			for _, pc := range n.Pods {
				out[pc.Workload] += pc.Count
			}
		}
		return out
	}
	b, a := counts(st.Before), counts(st.After)
	if st.After.PodsEvicted != len(pods) {
		t.Fatalf("after: %d pods evicted, want %d (every node drifted)", st.After.PodsEvicted, len(pods))
	}
	if len(b) != len(pods) || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("pods per workload: %v before, %v after the drift recreated them; want one pod of each workload", b, a)
	}
}
