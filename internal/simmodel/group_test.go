package simmodel

import (
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A seeded complement of TestGroupPodsShortcutMatchesShapeKeys over more fields. GroupPods'
// shortcut for a pod like the previous one (sameShape) must never join pods that workloadOf
// tells apart. The runs are seeded runs of replicas, each followed now and then by a pod that
// differs in one field workloadOf reads. Two pods share a workload exactly when their shape
// keys are equal, and the counts add up.
func TestGroupPodsShortcutKeepsShapesApart(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	base := func(app string) *corev1.Pod {
		return Workload{Name: app, Count: 1, Labels: map[string]string{"app": app},
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("1Gi")}}.Pod(0)
	}
	// Each variation changes one field workloadOf reads (or, the last ones, none it keeps).
	variations := []func(p *corev1.Pod){
		func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse("600m")
		},
		func(p *corev1.Pod) { p.Labels = map[string]string{"app": p.Labels["app"], "tier": "x"} },
		func(p *corev1.Pod) { p.Namespace = "other" },
		func(p *corev1.Pod) { p.Spec.NodeSelector = map[string]string{"kubernetes.io/arch": "arm64"} },
		func(p *corev1.Pod) {
			p.Spec.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpExists}}
		},
		func(p *corev1.Pod) {
			p.Spec.InitContainers = []corev1.Container{{Name: "init", Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}}}}
		},
		func(p *corev1.Pod) {
			p.Spec.Overhead = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("128Mi")}
		},
		func(p *corev1.Pod) {
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
				WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": p.Labels["app"]}}}}
		},
		func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				TopologyKey: corev1.LabelHostname, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": p.Labels["app"]}}}}}}
		},
		func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{
					Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"westeurope-1"}}}}}}}}
		},
		func(p *corev1.Pod) { p.Name += "-renamed" },                                  // not read
		func(p *corev1.Pod) { p.Annotations = map[string]string{"note": "not read"} }, // not read
	}
	for run := 0; run < 50; run++ {
		var pods []*corev1.Pod
		for len(pods) < 200 {
			p := base([]string{"a", "b", "c"}[rng.IntN(3)])
			for r := rng.IntN(6); r >= 0; r-- {
				pods = append(pods, p.DeepCopy())
			}
			if rng.IntN(2) == 0 {
				q := p.DeepCopy()
				variations[rng.IntN(len(variations))](q)
				pods = append(pods, q)
			}
		}
		ws, index := GroupPods(pods)
		count := make([]int, len(ws))
		groupOfKey := map[string]int{}
		for i, p := range pods {
			count[index[i]]++
			key := shapeKey(workloadOf(p))
			if g, ok := groupOfKey[key]; !ok {
				groupOfKey[key] = index[i]
			} else if g != index[i] {
				t.Fatalf("run %d: pod %d (shape %q) in workload %d, an earlier pod of its shape in %d", run, i, key, index[i], g)
			}
		}
		if len(groupOfKey) != len(ws) {
			t.Fatalf("run %d: %d workloads for %d shapes", run, len(ws), len(groupOfKey))
		}
		for i, w := range ws {
			if w.Count != count[i] {
				t.Fatalf("run %d: workload %d counts %d pods, %d are in it", run, i, w.Count, count[i])
			}
		}
	}
}
