package eks

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// overhead is the node's kube-reserved, system-reserved and eviction threshold
// as upstream's NewInstanceType computes them. The node class has been checked,
// so the quantities parse.
func overhead(t *catalog.InstanceType, f family, nc NodeClass, o Options, capacity corev1.ResourceList) (*cloudprovider.InstanceTypeOverhead, error) {
	// Families with UsesENILimitedMemoryOverhead reserve memory for the
	// ENI-limited density (without reserved ENIs) whatever maxPods says.
	var pods int64
	var err error
	if f.usesENILimitedMemoryOverhead {
		pods, err = eniLimitedPods(t, 0)
	} else {
		pods, err = podCapacity(t, f, nc.Kubelet, o)
	}
	if err != nil {
		return nil, err
	}
	mem := capacity[corev1.ResourceMemory]
	storage := capacity[corev1.ResourceEphemeralStorage]
	return &cloudprovider.InstanceTypeOverhead{
		KubeReserved:      kubeReserved(t.VCPU, pods, nc.Kubelet.KubeReserved),
		SystemReserved:    parsed(nc.Kubelet.SystemReserved),
		EvictionThreshold: evictionThreshold(mem, storage, nc.Kubelet.EvictionHard),
	}, nil
}

// kubeReserved: 11 MiB per pod + 255 MiB, 1 GiB of ephemeral storage, and CPU
// by the Bottlerocket/EKS ranges (6 % of the first core, 1 % of the second,
// 0.5 % of cores 3–4, 0.25 % of the rest), then the node class's overrides.
func kubeReserved(vcpus, pods int64, overrides map[string]string) corev1.ResourceList {
	out := corev1.ResourceList{
		corev1.ResourceMemory:           resource.MustParse(fmt.Sprintf("%dMi", 11*pods+255)),
		corev1.ResourceEphemeralStorage: resource.MustParse("1Gi"),
	}
	milli := vcpus * 1000
	reserved := resource.Quantity{Format: resource.DecimalSI}
	for _, r := range []struct {
		start, end int64
		share      float64
	}{{0, 1000, 0.06}, {1000, 2000, 0.01}, {2000, 4000, 0.005}, {4000, 1 << 31, 0.0025}} {
		if milli < r.start {
			continue
		}
		span := float64(r.end - r.start)
		if milli < r.end {
			span = float64(milli - r.start)
		}
		// Truncated per range, as upstream does.
		reserved.Add(*resource.NewMilliQuantity(int64(span*r.share), resource.DecimalSI))
	}
	out[corev1.ResourceCPU] = reserved
	for k, q := range parsed(overrides) {
		out[k] = q
	}
	return out
}

func parsed(m map[string]string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for k, v := range m {
		out[corev1.ResourceName(k)] = resource.MustParse(v)
	}
	return out
}

// evictionThreshold: 100Mi of memory and 10 % of ephemeral storage, unless
// evictionHard sets memory.available or nodefs.available. evictionSoft does not
// reduce allocatable.
func evictionThreshold(mem, storage resource.Quantity, hard map[string]string) corev1.ResourceList {
	out := corev1.ResourceList{
		corev1.ResourceMemory: resource.MustParse("100Mi"),
		// Built from the float's printed form (2.147483648e+09), as upstream
		// does, so that the quantity also prints the same.
		corev1.ResourceEphemeralStorage: resource.MustParse(fmt.Sprint(math.Ceil(float64(storage.Value()) / 100 * 10))),
	}
	if v, ok := hard["memory.available"]; ok {
		out[corev1.ResourceMemory] = evictionSignal(mem, v)
	}
	if v, ok := hard["nodefs.available"]; ok {
		out[corev1.ResourceEphemeralStorage] = evictionSignal(storage, v)
	}
	return out
}

// evictionSignal is a quantity, or a percentage of capacity rounded up; 100 %
// disables the threshold (kubelet's convention), so it reserves nothing.
func evictionSignal(capacity resource.Quantity, v string) resource.Quantity {
	if !strings.HasSuffix(v, "%") {
		return resource.MustParse(v)
	}
	p, _ := strconv.ParseFloat(strings.Trim(v, "%"), 64)
	if p == 100 {
		p = 0
	}
	return resource.MustParse(fmt.Sprint(math.Ceil(capacity.AsApproximateFloat64() / 100 * p)))
}
