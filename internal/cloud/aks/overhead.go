package aks

import (
	"fmt"
	"math"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/karpenter/pkg/utils/resources"
)

// The reservation formulas are AKS's; the Azure provider encodes them as
// bracketed "taxes" on memory (GiB) and vCPUs, and so do we.
type bracket struct{ upper, rate float64 }

type brackets []bracket

var (
	memoryReservation = brackets{{4, .25}, {8, .20}, {16, .10}, {128, .06}, {math.MaxFloat64, .02}}
	cpuReservation    = brackets{{1, .06}, {2, .04}, {4, .02}, {math.MaxFloat64, .01}}
)

func (bs brackets) of(amount float64) float64 {
	var tax, lower float64
	for _, b := range bs {
		if lower > amount {
			continue
		}
		upper := math.Min(b.upper, amount)
		tax += (upper - lower) * b.rate
		lower = b.upper
	}
	return tax
}

// DefaultEvictionMemory is the kubelet hard eviction threshold AKS configures.
const DefaultEvictionMemory = "750Mi"

// KubeReserved returns AKS's kube-reserved CPU and memory for a VM size. Both are
// truncated to whole millicores and MiB before being turned into quantities,
// exactly as upstream does, because allocatable must match to the byte.
func KubeReserved(vcpus int64, memoryGiB float64) corev1.ResourceList {
	memMiB := int64(1024 * memoryReservation.of(memoryGiB))
	cpuMilli := int64(1000 * cpuReservation.of(float64(vcpus)))
	return corev1.ResourceList{
		corev1.ResourceCPU:    *resource.NewScaledQuantity(cpuMilli, resource.Milli),
		corev1.ResourceMemory: *resource.NewQuantity(memMiB*1024*1024, resource.BinarySI),
	}
}

// SystemReserved is empty: AKS reserves nothing for system daemons on Linux.
func SystemReserved() corev1.ResourceList {
	return corev1.ResourceList{corev1.ResourceCPU: resource.Quantity{}, corev1.ResourceMemory: resource.Quantity{}}
}

// EvictionThreshold is the memory kept free by kubelet's hard eviction.
func EvictionThreshold() corev1.ResourceList {
	return corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(DefaultEvictionMemory)}
}

// MemoryWithoutOverhead is the memory capacity Karpenter assumes for a VM: the
// whole GiB (fractions dropped) less the hypervisor overhead fraction, rounded up.
func MemoryWithoutOverhead(overheadFraction, memoryGiB float64) *resource.Quantity {
	memory := resources.Quantity(fmt.Sprintf("%dGi", int64(memoryGiB)))
	memory.Sub(*resource.NewQuantity(int64(math.Ceil(float64(memory.Value())*overheadFraction)), resource.DecimalSI))
	return memory
}
