package benchcmp

import (
	"fmt"
	"math/rand/v2"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

const region = "westeurope"

// profile is a set of NodePools the pods are scheduled on.
type profile struct {
	name  string
	pools func() []*karpv1.NodePool
}

func nodePool(name string, weight int32, limits corev1.ResourceList, reqs ...karpv1.NodeSelectorRequirementWithMinValues) *karpv1.NodePool {
	np := &karpv1.NodePool{}
	np.Name = name
	np.UID = types.UID("uid-" + name)
	if weight != 0 {
		np.Spec.Weight = &weight
	}
	np.Spec.Limits = karpv1.Limits(limits)
	np.Spec.Template.Spec.Requirements = reqs
	np.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}
	return np
}

func req(key string, op corev1.NodeSelectorOperator, values ...string) karpv1.NodeSelectorRequirementWithMinValues {
	return karpv1.NodeSelectorRequirementWithMinValues{Key: key, Operator: op, Values: values}
}

var onDemand = req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeOnDemand)

// profiles are the NodePool shapes the issue names: wide, one family, capped size, spot on
// arm64, and tight limits (a limited preferred pool spilling into a fallback pool).
var profiles = []profile{
	{"wide", func() []*karpv1.NodePool {
		return []*karpv1.NodePool{nodePool("general", 0, nil, onDemand)}
	}},
	{"one-family", func() []*karpv1.NodePool {
		return []*karpv1.NodePool{nodePool("dfamily", 0, nil, onDemand, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D"))}
	}},
	{"capped-size", func() []*karpv1.NodePool {
		return []*karpv1.NodePool{nodePool("small", 0, nil, onDemand, req("karpenter.azure.com/sku-cpu", corev1.NodeSelectorOpLt, "17"))}
	}},
	{"spot-arm64", func() []*karpv1.NodePool {
		return []*karpv1.NodePool{nodePool("spotarm", 0, nil,
			req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot),
			req(corev1.LabelArchStable, corev1.NodeSelectorOpIn, karpv1.ArchitectureArm64))}
	}},
	{"tight-limits", func() []*karpv1.NodePool {
		return []*karpv1.NodePool{
			nodePool("preferred", 50, corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("64"), corev1.ResourceMemory: resource.MustParse("256Gi")},
				onDemand, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D")),
			nodePool("fallback", 0, corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100000")},
				onDemand, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "E", "F")),
		}
	}},
}

var sizes = []int{100, 1000, 5000}

// workloads draws Deployments until count pods: replica counts, cpu requests and memory per
// cpu as clusters have them, a third spread over zones, a few selecting Linux explicitly.
func workloads(seed uint64, count int) []simmodel.Workload {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	replicas := []int{1, 2, 3, 3, 5, 5, 8, 10, 20, 40}
	cpus := []int64{100, 250, 250, 500, 500, 1000, 1000, 1500, 2000, 4000}
	memPerCPU := []int64{512, 1024, 2048, 2048, 4096, 4096, 8192} // MiB per cpu
	var out []simmodel.Workload
	for total, i := 0, 0; total < count; i++ {
		n := min(replicas[rng.IntN(len(replicas))], count-total)
		cpu := cpus[rng.IntN(len(cpus))]
		mem := max(cpu*memPerCPU[rng.IntN(len(memPerCPU))]/1000, 64)
		w := simmodel.Workload{
			Name:  fmt.Sprintf("app-%03d", i),
			Count: n,
			Requests: corev1.ResourceList{
				corev1.ResourceCPU:    *resource.NewMilliQuantity(cpu, resource.DecimalSI),
				corev1.ResourceMemory: *resource.NewQuantity(mem<<20, resource.BinarySI),
			},
		}
		if rng.IntN(3) == 0 {
			w.ZoneSpread = 1
		}
		if rng.IntN(10) == 0 {
			w.NodeSelector = map[string]string{corev1.LabelOSStable: "linux"}
		}
		out = append(out, w)
		total += n
	}
	return out
}
