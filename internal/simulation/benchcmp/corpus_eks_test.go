package benchcmp

import (
	"fmt"
	"math/rand/v2"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// eksCorpusRegions are where the seeded EKS scenarios run: us-east-1 (the catalog's price
// table, half) and two regions priced from it, as the AWS provider falls back to it.
var eksCorpusRegions = []string{"us-east-1", "us-east-1", "us-west-2", "eu-west-1"}

// eksPodTerms are the EKS corpus's node-affinity terms on the AWS provider's labels.
var eksPodTerms = podTerms{
	prefer: corev1.NodeSelectorRequirement{Key: "karpenter.k8s.aws/instance-category", Operator: corev1.NodeSelectorOpIn, Values: []string{"r"}},
	require: []corev1.NodeSelectorRequirement{
		{Key: "karpenter.k8s.aws/instance-generation", Operator: corev1.NodeSelectorOpGt, Values: []string{"5"}},
		{Key: "karpenter.k8s.aws/instance-family", Operator: corev1.NodeSelectorOpIn, Values: []string{"m6i", "m7i", "c6i", "r6i"}},
		{Key: "karpenter.k8s.aws/instance-hypervisor", Operator: corev1.NodeSelectorOpIn, Values: []string{"nitro"}},
		{Key: "karpenter.k8s.aws/instance-memory", Operator: corev1.NodeSelectorOpGt, Values: []string{"16383"}},
	},
}

// eksNodePool is a NodePool of the EKS corpus: its nodeClassRef names an EC2NodeClass.
func eksNodePool(name string, weight int32) *karpv1.NodePool {
	np := nodePool(name, weight, nil)
	np.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"}
	return np
}

// eksCorpusScenario draws the i-th scenario of the seeded EKS corpus: 1–4 NodePools (weights,
// cpu limits, taints, minValues on instance types or families, spot, on-demand or both, arm64
// (Graviton), a tainted GPU pool, the AWS provider's labels: instance category, family,
// generation, cpu, size), 10–2,000 pods (most under 100) from Deployments with hostname spread,
// required and preferred anti-affinity, zone spread (the catalog has no zones: no domain,
// so a DoNotSchedule zone spread cannot be met and a ScheduleAnyway one is relaxed, on both
// sides), preferred and required node affinity on karpenter.k8s.aws/* labels, arch selectors,
// GPU requests, tolerations, and 0–3 DaemonSets. Instance types are internal/cloud/eks's for the
// default EC2NodeClass.
func eksCorpusScenario(seed uint64, i int, maxPods int, types func(string) []*cloudprovider.InstanceType) scenario {
	rng := rand.New(rand.NewPCG(seed^0xe45, uint64(i)))
	region := eksCorpusRegions[rng.IntN(len(eksCorpusRegions))]
	sc := scenario{name: fmt.Sprintf("eks%d-%03d-%s", seed, i, region), its: map[string][]*cloudprovider.InstanceType{}, eks: true}
	its := types(region)
	npools := 1 + rng.IntN(4)
	tainted, gpu := false, false
	for p := 0; p < npools; p++ {
		np := eksNodePool(fmt.Sprintf("pool-%d", p), []int32{0, 0, 10, 50, 100}[rng.IntN(5)])
		add := func(r karpv1.NodeSelectorRequirementWithMinValues) {
			np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, r)
		}
		switch rng.IntN(4) {
		case 0:
			add(onDemand)
		case 1:
			add(req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot))
		case 2:
			add(req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot, karpv1.CapacityTypeOnDemand))
		}
		switch rng.IntN(9) {
		case 0: // the EKS getting-started default pool
			add(req("karpenter.k8s.aws/instance-category", corev1.NodeSelectorOpIn, "c", "m", "r"))
			add(req("karpenter.k8s.aws/instance-generation", corev1.NodeSelectorOpGt, "2"))
		case 1:
			add(req("karpenter.k8s.aws/instance-family", corev1.NodeSelectorOpIn, "m5", "m6i", "m7i"))
		case 2:
			add(req("karpenter.k8s.aws/instance-cpu", corev1.NodeSelectorOpLt, []string{"9", "17", "33"}[rng.IntN(3)]))
			add(req("karpenter.k8s.aws/instance-category", corev1.NodeSelectorOpIn, "c", "m", "r"))
		case 3: // Graviton
			add(req(corev1.LabelArchStable, corev1.NodeSelectorOpIn, karpv1.ArchitectureArm64))
			add(req("karpenter.k8s.aws/instance-category", corev1.NodeSelectorOpIn, "c", "m", "r"))
		case 4:
			if !gpu {
				gpu = true
				add(req("karpenter.k8s.aws/instance-gpu-count", corev1.NodeSelectorOpGt, "0"))
				np.Spec.Template.Spec.Taints = append(np.Spec.Template.Spec.Taints, corev1.Taint{Key: "nvidia.com/gpu", Value: "true", Effect: corev1.TaintEffectNoSchedule})
			}
		case 5:
			add(req("karpenter.k8s.aws/instance-size", corev1.NodeSelectorOpNotIn, "metal", "24xlarge", "32xlarge", "48xlarge"))
			add(req("karpenter.k8s.aws/instance-generation", corev1.NodeSelectorOpGt, "5"))
		case 6:
			add(req("karpenter.k8s.aws/instance-category", corev1.NodeSelectorOpIn, "r", "x"))
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
			key := []string{corev1.LabelInstanceTypeStable, "karpenter.k8s.aws/instance-family"}[rng.IntN(2)]
			r := req(key, corev1.NodeSelectorOpExists)
			r.MinValues = &mv
			add(r)
		}
		sc.pools = append(sc.pools, np)
		sc.its[np.Name] = its
	}
	addCorpusWorkload(rng, &sc, maxPods, tainted, gpu, eksPodTerms)
	return sc
}
