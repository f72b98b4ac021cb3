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

// GroupPods' shortcut for a pod like the previous one gives what grouping every pod by its
// shape key gives: the same workloads, counts and indices. The pods are replicas in a row,
// interleaved, and differing in one field each: requests in another unit, a label, a spread,
// an anti-affinity term, a toleration, an init container.
func TestGroupPodsShortcutMatchesShapeKeys(t *testing.T) {
	base := pods("web", 3, "250m", "256Mi")
	base.ZoneSpread = 1
	variants := []Workload{base}
	v := base
	v.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("0.25"), corev1.ResourceMemory: resource.MustParse("268435456")}
	variants = append(variants, v)
	v = base
	v.Labels = map[string]string{"tier": "x"}
	variants = append(variants, v)
	v = base
	v.HostnameSpread = 2
	variants = append(variants, v)
	v = base
	v.HostnameAntiAffinity = true
	variants = append(variants, v)
	v = base
	v.Tolerations = []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists}}
	variants = append(variants, v)
	var in []*corev1.Pod
	for _, w := range variants {
		in = append(in, Pods([]Workload{w})...)
	}
	init := base.Pod(9)
	init.Spec.InitContainers = []corev1.Container{{Name: "init", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}}}}
	in = append(in, init)
	// Interleaved too.
	for i := 0; i < 3; i++ {
		for _, w := range variants {
			in = append(in, w.Pod(10+i))
		}
	}
	got, index := GroupPods(in)
	// Reference: every pod by its shape key.
	byKey := map[string]int{}
	var counts []int
	for pi, p := range in {
		k := shapeKey(workloadOf(p))
		i, ok := byKey[k]
		if !ok {
			i = len(counts)
			byKey[k] = i
			counts = append(counts, 0)
		}
		counts[i]++
		if index[pi] != i {
			t.Fatalf("pod %d (%s) in workload %d, want %d", pi, p.Name, index[pi], i)
		}
	}
	if len(got) != len(counts) {
		t.Fatalf("%d workloads, want %d", len(got), len(counts))
	}
	for i, w := range got {
		if w.Count != counts[i] || shapeKey(w) != shapeKey(workloadOf(in[slicesIndex(index, i)])) {
			t.Errorf("workload %d: count %d, want %d", i, w.Count, counts[i])
		}
	}
}

func slicesIndex(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}
