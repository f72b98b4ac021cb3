package benchcmp

import (
	"fmt"
	"math/rand/v2"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// corpusRegions are where the seeded scenarios run: westeurope (the benchmark's region, one
// regional placement in the snapshot) and two regions with zones.
var corpusRegions = []string{"westeurope", "westeurope", "eastus", "westus2"}

// corpusScenario draws the i-th scenario of the seeded corpus: 1–4 NodePools (weights,
// limits, taints, minValues, spot and on-demand, arm64, GPU), 10–2,000 pods (most under
// 100) from Deployments with zone and hostname spread, anti-affinity, preferences, and 0–3
// DaemonSets.
func corpusScenario(seed uint64, i int, maxPods int, types func(string) []*cloudprovider.InstanceType) scenario {
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	region := corpusRegions[rng.IntN(len(corpusRegions))]
	sc := scenario{name: fmt.Sprintf("seed%d-%03d-%s", seed, i, region), its: map[string][]*cloudprovider.InstanceType{}}
	its := types(region)
	npools := 1 + rng.IntN(4)
	tainted := false
	gpu := false
	for p := 0; p < npools; p++ {
		np := nodePool(fmt.Sprintf("pool-%d", p), []int32{0, 0, 10, 50, 100}[rng.IntN(5)], nil)
		switch rng.IntN(4) {
		case 0:
			np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, onDemand)
		case 1:
			np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot))
		case 2:
			np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot, karpv1.CapacityTypeOnDemand))
		}
		switch rng.IntN(8) {
		case 0:
			np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D"))
		case 1:
			np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D", "E", "F"))
		case 2:
			np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, req("karpenter.azure.com/sku-cpu", corev1.NodeSelectorOpLt, []string{"9", "17", "33"}[rng.IntN(3)]))
		case 3:
			np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, req(corev1.LabelArchStable, corev1.NodeSelectorOpIn, karpv1.ArchitectureArm64))
		case 4:
			if !gpu {
				gpu = true
				np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, req("karpenter.azure.com/sku-gpu-count", corev1.NodeSelectorOpGt, "0"))
				np.Spec.Template.Spec.Taints = append(np.Spec.Template.Spec.Taints, corev1.Taint{Key: "nvidia.com/gpu", Value: "true", Effect: corev1.TaintEffectNoSchedule})
			}
		}
		if rng.IntN(5) == 0 {
			np.Spec.Template.Spec.Taints = append(np.Spec.Template.Spec.Taints, corev1.Taint{Key: "dedicated", Value: "batch", Effect: corev1.TaintEffectNoSchedule})
			tainted = true
		}
		if rng.IntN(4) == 0 {
			np.Spec.Limits = karpv1.Limits{corev1.ResourceCPU: *resource.NewQuantity(int64(16+rng.IntN(400)), resource.DecimalSI)}
		}
		if rng.IntN(5) == 0 {
			mv := 2 + rng.IntN(4)
			r := req(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpExists)
			r.MinValues = &mv
			np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, r)
		}
		sc.pools = append(sc.pools, np)
		sc.its[np.Name] = its
	}
	addCorpusWorkload(rng, &sc, maxPods, tainted, gpu, aksPodTerms)
	return sc
}

// addCorpusWorkload draws a scenario's pods (mostly 10–99, up to 2,000, at most maxPods) and
// up to three DaemonSets, the same way for every cloud's corpus.
func addCorpusWorkload(rng *rand.Rand, sc *scenario, maxPods int, tainted, gpu bool, terms podTerms) {
	n := 10 + rng.IntN(90)
	switch r := rng.IntN(100); {
	case r < 8:
		n = 500 + rng.IntN(1501)
	case r < 30:
		n = 100 + rng.IntN(400)
	}
	n = min(n, maxPods)
	sc.pods = corpusPods(rng, n, tainted, gpu, terms)
	for d := rng.IntN(4); d > 0; d-- {
		sc.daemons = append(sc.daemons, corpusDaemon(rng, d))
	}
}

// podTerms are the cloud's label terms the corpus's pods use: prefer is a preferred node
// affinity term; require, when set, is drawn as a required node affinity term for one
// workload in six (the EKS corpus only: the AKS corpus's draws stay as they were).
type podTerms struct {
	prefer  corev1.NodeSelectorRequirement
	require []corev1.NodeSelectorRequirement
}

var aksPodTerms = podTerms{prefer: corev1.NodeSelectorRequirement{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpIn, Values: []string{"E"}}}

func corpusPods(rng *rand.Rand, count int, tainted, gpu bool, terms podTerms) []*corev1.Pod {
	replicas := []int{1, 2, 3, 3, 5, 5, 8, 10, 20, 40}
	cpus := []int64{100, 250, 250, 500, 500, 1000, 1000, 1500, 2000, 4000}
	memPerCPU := []int64{512, 1024, 2048, 2048, 4096, 4096, 8192}
	var out []*corev1.Pod
	for total, w := 0, 0; total < count; w++ {
		n := min(replicas[rng.IntN(len(replicas))], count-total)
		cpu := cpus[rng.IntN(len(cpus))]
		mem := max(cpu*memPerCPU[rng.IntN(len(memPerCPU))]/1000, 64)
		app := fmt.Sprintf("app-%03d", w)
		spec := corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewMilliQuantity(cpu, resource.DecimalSI),
			corev1.ResourceMemory: *resource.NewQuantity(mem<<20, resource.BinarySI),
		}}}}}
		self := &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
		switch rng.IntN(12) {
		case 0, 1:
			spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: self}}
		case 2:
			spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.ScheduleAnyway, LabelSelector: self}}
		case 3:
			spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: int32(1 + rng.IntN(3)), TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: self}}
		case 4:
			n = min(n, 10)
			spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{TopologyKey: corev1.LabelHostname, LabelSelector: self}}}}
		case 5:
			spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 10, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: corev1.LabelHostname, LabelSelector: self}}}}}
		case 6:
			spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 50, Preference: corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{terms.prefer}}}}}}
		case 7:
			spec.NodeSelector = map[string]string{corev1.LabelArchStable: []string{karpv1.ArchitectureArm64, karpv1.ArchitectureAmd64}[rng.IntN(2)]}
		case 8:
			if gpu {
				spec.Containers[0].Resources.Requests["nvidia.com/gpu"] = resource.MustParse("1")
				spec.Tolerations = append(spec.Tolerations, corev1.Toleration{Key: "nvidia.com/gpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule})
			}
		}
		if tainted && rng.IntN(3) == 0 {
			spec.Tolerations = append(spec.Tolerations, corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "batch", Effect: corev1.TaintEffectNoSchedule})
		}
		if len(terms.require) > 0 && rng.IntN(6) == 0 {
			r := terms.require[rng.IntN(len(terms.require))]
			if spec.Affinity == nil {
				spec.Affinity = &corev1.Affinity{}
			}
			if spec.Affinity.NodeAffinity == nil {
				spec.Affinity.NodeAffinity = &corev1.NodeAffinity{}
			}
			spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{r}}}}
		}
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("%s-%d", app, i)
			p := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(name), Labels: map[string]string{"app": app}},
				Spec:       *spec.DeepCopy(),
				Status:     corev1.PodStatus{Phase: corev1.PodPending},
			}
			out = append(out, p)
		}
		total += n
	}
	return out
}

func corpusDaemon(rng *rand.Rand, i int) *corev1.Pod {
	name := fmt.Sprintf("daemon-%d", i)
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "kube-system", UID: types.UID(name), Labels: map[string]string{"app": name}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewMilliQuantity(int64(50+rng.IntN(200)), resource.DecimalSI),
			corev1.ResourceMemory: *resource.NewQuantity(int64(64+rng.IntN(256))<<20, resource.BinarySI),
		}}}}},
	}
	switch rng.IntN(3) {
	case 0:
		p.Spec.Tolerations = []corev1.Toleration{{Operator: corev1.TolerationOpExists}}
	case 1:
		p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
			NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: corev1.LabelArchStable, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.ArchitectureAmd64}}}}},
		}}}
	}
	return p
}
