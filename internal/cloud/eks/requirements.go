package eks

import (
	"fmt"
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// nameScheme splits category and generation off a type name ("m7i-flex.large":
// m, 7; "u-6tb1.metal": u, 1), as upstream's instanceTypeScheme does.
var nameScheme = regexp.MustCompile(`(^[a-z]+)(\-[0-9]+tb)?([0-9]+).*\.`)

// requirements are the node labels of the instance type as upstream's
// computeRequirements sets them, less what the catalog cannot know: zones and
// zone IDs (no requirement at all, rather than upstream's In [zones of the
// node class's subnets]) and capacity reservations (none, as for a node class
// without capacityReservationSelectorTerms).
func requirements(t *catalog.InstanceType, region string, f family) scheduling.Requirements {
	dne := func(key string) *scheduling.Requirement {
		return scheduling.NewRequirement(key, corev1.NodeSelectorOpDoesNotExist)
	}
	in := func(key string, values ...string) *scheduling.Requirement {
		return scheduling.NewRequirement(key, corev1.NodeSelectorOpIn, values...)
	}
	reqs := scheduling.NewRequirements(
		in(corev1.LabelInstanceTypeStable, t.Name),
		in(corev1.LabelArchStable, t.Arch),
		in(corev1.LabelOSStable, osOf(t, f)...),
		in(corev1.LabelTopologyRegion, region),
		dne(corev1.LabelWindowsBuild),
		// The catalog has no SupportedUsageClasses: both are assumed, and
		// offerings without a price are unavailable.
		in(karpv1.CapacityTypeLabelKey, karpv1.CapacityTypeOnDemand, karpv1.CapacityTypeSpot),
		in(LabelInstanceCPU, fmt.Sprint(t.VCPU)),
		in(LabelInstanceMemory, fmt.Sprint(t.MemoryMiB)),
		in(LabelInstanceHypervisor, t.Hypervisor),
		in(LabelInstanceEncryptionInTransit, fmt.Sprint(t.EncryptionInTransit)),
		in(LabelInstanceTenancy, "default", "dedicated"),
		in(LabelInstanceCPUManufacturer, t.CPUManufacturer),
		dne(LabelCapacityReservationID),
		dne(LabelCapacityReservationType),
		dne(LabelCapacityReservationInterruptible),
	)
	optional := func(key string, v *int64) {
		if v == nil {
			reqs.Add(dne(key))
			return
		}
		reqs.Add(in(key, fmt.Sprint(*v)))
	}
	optional(LabelInstanceCPUSustainedClockSpeed, t.ClockMHz)
	optional(LabelInstanceEBSBandwidth, t.EBSBandwidthMbps)
	optional(LabelInstanceNetworkBandwidth, t.NetworkBandwidthMbps)
	optional(LabelInstanceLocalNVME, t.LocalNVMeGB)

	nameReq := func(key, v string, ok bool) {
		if !ok {
			reqs.Add(dne(key))
			return
		}
		reqs.Add(in(key, v))
	}
	parts := nameScheme.FindStringSubmatch(t.Name)
	nameReq(LabelInstanceCategory, at(parts, 1), len(parts) == 4)
	nameReq(LabelInstanceGeneration, at(parts, 3), len(parts) == 4)
	family, size, two := strings.Cut(t.Name, ".")
	two = two && !strings.Contains(size, ".")
	nameReq(LabelInstanceFamily, family, two)
	nameReq(LabelInstanceSize, size, two)
	reqs.Add(in(LabelInstanceCapabilityFlex, fmt.Sprint(strings.Contains(family, "-flex"))))

	device := func(d *catalog.Device, name, manufacturer, count, memory string) {
		if d == nil {
			reqs.Add(dne(name), dne(manufacturer), dne(count))
			if memory != "" {
				reqs.Add(dne(memory))
			}
			return
		}
		reqs.Add(in(name, d.Name), in(manufacturer, d.Manufacturer), in(count, fmt.Sprint(d.Count)))
		if memory != "" {
			optional(memory, d.MemoryMiB)
		}
	}
	device(t.GPU, LabelInstanceGPUName, LabelInstanceGPUManufacturer, LabelInstanceGPUCount, LabelInstanceGPUMemory)
	device(t.Accelerator, LabelInstanceAcceleratorName, LabelInstanceAcceleratorManufacturer, LabelInstanceAcceleratorCount, "")
	if f.windowsBuild != "" {
		reqs.Get(corev1.LabelWindowsBuild).Insert(f.windowsBuild)
	}
	return reqs
}

// osOf: Windows AMIs exist for amd64 only; an arm64 type under a Windows
// family gets an OS requirement with no value, which nothing matches.
func osOf(t *catalog.InstanceType, f family) []string {
	if f.windowsBuild == "" {
		return []string{string(corev1.Linux)}
	}
	if t.Arch == "amd64" {
		return []string{string(corev1.Windows)}
	}
	return nil
}

func at(parts []string, i int) string {
	if i < len(parts) {
		return parts[i]
	}
	return ""
}
