package simmodel

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func pods(name string, n int, cpu, mem string) Workload {
	return Workload{Name: name, Count: n, Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}}
}

func TestWorkloadsFromPodsRoundTrip(t *testing.T) {
	w := pods("web", 3, "250m", "256Mi")
	w.ZoneSpread = 2
	w.NodeSelector = map[string]string{corev1.LabelOSStable: "linux"}
	got := WorkloadsFromPods(Pods([]Workload{w, pods("db", 2, "1", "4Gi")}))
	if len(got) != 2 || got[0].Name != "web" || got[0].Count != 3 || got[0].ZoneSpread != 2 || got[1].Count != 2 {
		t.Fatalf("got %+v", got)
	}
}

// A pod's requests are what Karpenter counts (resources.Ceiling): the larger of its
// containers' sum and its largest init container, sidecars included, plus the pod overhead.
func TestWorkloadsFromPodsCountsInitContainersAndOverhead(t *testing.T) {
	cpu := func(s string) corev1.ResourceList {
		return corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(s)}
	}
	p := Workload{Name: "w", Count: 1, Requests: cpu("500m")}.Pod(0)
	p.Spec.InitContainers = []corev1.Container{{Name: "migrate", Resources: corev1.ResourceRequirements{Requests: cpu("2")}}}
	p.Spec.Overhead = cpu("100m")
	ws := WorkloadsFromPods([]*corev1.Pod{p})
	if got := ws[0].Requests[corev1.ResourceCPU]; got.Cmp(resource.MustParse("2100m")) != 0 {
		t.Errorf("cpu request %s, want 2100m (init container 2 + overhead 100m)", got.String())
	}
}
