package eks

import (
	"fmt"
	"math"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// Options are the Karpenter controller settings (not the node class) that the
// derivation depends on.
type Options struct {
	// VMMemoryOverheadPercent is --vm-memory-overhead-percent (default 0.075):
	// the share of memory the hypervisor and firmware keep, taken off capacity
	// until Karpenter has seen a real node of the type.
	VMMemoryOverheadPercent float64
	// ReservedENIs is --reserved-enis (default 0): ENIs the VPC CNI does not use
	// for pods (custom networking).
	ReservedENIs int
}

// DefaultOptions are the controller defaults, the ones upstream's docs use.
func DefaultOptions() Options { return Options{VMMemoryOverheadPercent: 0.075} }

// capacity is computeCapacity: the quantities are built from the same strings
// upstream builds them from, so that their formatting (940m, 1392Mi) matches too.
func capacity(t *catalog.InstanceType, f family, nc NodeClass, o Options) (corev1.ResourceList, error) {
	pods, err := podCapacity(t, f, nc.Kubelet, o)
	if err != nil {
		return nil, err
	}
	return corev1.ResourceList{
		corev1.ResourceCPU:              cpu(t),
		corev1.ResourceMemory:           memory(t, o),
		corev1.ResourceEphemeralStorage: ephemeralStorage(t, f, nc),
		corev1.ResourcePods:             *resources.Quantity(fmt.Sprint(pods)),
		ResourceAWSPodENI:               podENI(t),
		ResourceNVIDIAGPU:               count(t.NVIDIAGPUs),
		ResourceAMDGPU:                  count(t.AMDGPUs),
		ResourceAWSNeuron:               count(t.NeuronDevices),
		ResourceAWSNeuronCore:           count(t.NeuronCores),
		ResourceHabanaGaudi:             count(t.HabanaGaudis),
		// EFAs: a node class's networkInterfaces (EFA-only interfaces) would
		// override this; the offline NodeClass does not model them yet.
		ResourceEFA: count(t.EFAs),
	}, nil
}

func count(n int64) resource.Quantity { return *resources.Quantity(fmt.Sprint(n)) }

func cpu(t *catalog.InstanceType) resource.Quantity { return *resources.Quantity(fmt.Sprint(t.VCPU)) }

// memory is the instance's memory less the VM overhead; Graviton keeps 64 MiB
// for CMA that the OS cannot use.
func memory(t *catalog.InstanceType, o Options) resource.Quantity {
	mib := t.MemoryMiB
	if t.Arch == "arm64" {
		mib -= 64
	}
	mem := resources.Quantity(fmt.Sprintf("%dMi", mib))
	mem.Sub(resource.MustParse(fmt.Sprintf("%dMi", int64(math.Ceil(float64(mem.Value())*o.VMMemoryOverheadPercent/1024/1024)))))
	return *mem
}

// ephemeralStorage: local NVMe under RAID0, else the root volume or the
// family's ephemeral device from blockDeviceMappings, else the family default.
func ephemeralStorage(t *catalog.InstanceType, f family, nc NodeClass) resource.Quantity {
	if nc.InstanceStorePolicy == "RAID0" && t.LocalNVMeGB != nil {
		// Upstream uses InstanceStorageInfo.TotalSizeInGB, which also counts
		// non-NVMe instance store; the catalog carries the NVMe size only.
		return *resources.Quantity(fmt.Sprintf("%dG", *t.LocalNVMeGB))
	}
	if bdms := nc.BlockDeviceMappings; len(bdms) != 0 {
		for _, b := range bdms {
			if b.RootVolume {
				if b.VolumeSize != nil {
					return *b.VolumeSize
				}
				break
			}
		}
		if f.name == AMIFamilyCustom {
			if v := bdms[len(bdms)-1].VolumeSize; v != nil {
				return *v
			}
			return f.ephemeralDefault
		}
		for _, b := range bdms {
			if b.DeviceName == f.ephemeralDevice {
				if b.VolumeSize != nil {
					return *b.VolumeSize
				}
				break
			}
		}
	}
	return f.ephemeralDefault
}

// podENI is the branch-interface count the VPC resource controller advertises
// for security groups for pods, on trunking-compatible types only.
func podENI(t *catalog.InstanceType) resource.Quantity {
	if t.ENI != nil && t.ENI.Trunking {
		return count(t.ENI.BranchInterfaces)
	}
	return count(0)
}

// eniLimitedPods is ENIs × (IPv4 per ENI − 1) + 2 on the default card, less
// reserved ENIs (the amazon-eks-ami max-pods formula).
func eniLimitedPods(t *catalog.InstanceType, reservedENIs int) (int64, error) {
	if t.ENI == nil {
		if t.ENILimitedPods == nil {
			return 0, fmt.Errorf("the catalog has neither ENI limits nor a pod density for it")
		}
		if reservedENIs != 0 {
			return 0, fmt.Errorf("the catalog has no ENI limits for it (only its default pod density), so %d reserved ENIs cannot be taken off", reservedENIs)
		}
		return *t.ENILimitedPods, nil
	}
	usable := max(t.ENI.Interfaces-int64(reservedENIs), 0)
	if usable == 0 {
		return 0, nil
	}
	return usable*(t.ENI.IPv4PerInterface-1) + 2, nil
}

// podCapacity: kubelet.maxPods if set, else the ENI-limited density (110 for a
// family without it), capped at podsPerCore × vCPUs where the family honours it.
func podCapacity(t *catalog.InstanceType, f family, k Kubelet, o Options) (int64, error) {
	var n int64
	switch {
	case k.MaxPods != nil:
		n = int64(*k.MaxPods)
	case f.supportsENILimitedPodDensity:
		var err error
		if n, err = eniLimitedPods(t, o.ReservedENIs); err != nil {
			return 0, err
		}
	default:
		n = 110
	}
	if k.PodsPerCore != nil && *k.PodsPerCore > 0 && f.podsPerCoreEnabled {
		n = min(int64(*k.PodsPerCore)*t.VCPU, n)
	}
	return n, nil
}
