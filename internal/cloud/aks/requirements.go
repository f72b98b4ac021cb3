package aks

import (
	"fmt"

	"github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	"github.com/Azure/karpenter-provider-azure/pkg/utils"
	"github.com/Azure/skewer"
	"github.com/samber/lo"
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// requirements builds the instance type's label requirements. Every
// Azure-specific well-known label gets a requirement, DoesNotExist where the
// size has no value, because Karpenter treats a missing requirement as "any".
func requirements(sku *skewer.SKU, vmsize *skewer.VMSizeType, architecture, region string, offerings cloudprovider.Offerings, nc NodeClass, cl Cluster) scheduling.Requirements {
	available := offerings.Available()
	single := func(key string) []string {
		return lo.Map(available, func(o *cloudprovider.Offering, _ int) string { return o.Requirements.Get(key).Any() })
	}
	vcpus := fmt.Sprint(vcpuCount(sku))
	memMiB := fmt.Sprint(memoryMiB(sku))
	reqs := scheduling.NewRequirements(
		scheduling.NewRequirement(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpIn, sku.GetName()),
		scheduling.NewRequirement(corev1.LabelArchStable, corev1.NodeSelectorOpIn, kubeArch(architecture)),
		scheduling.NewRequirement(corev1.LabelOSStable, corev1.NodeSelectorOpIn, string(corev1.Linux)),
		scheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, single(corev1.LabelTopologyZone)...),
		scheduling.NewRequirement(corev1.LabelTopologyRegion, corev1.NodeSelectorOpIn, region),
		scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, single(karpv1.CapacityTypeLabelKey)...),
		scheduling.NewRequirement(v1beta1.LabelPlacementScope, corev1.NodeSelectorOpIn, single(v1beta1.LabelPlacementScope)...),
		scheduling.NewRequirement(v1beta1.LabelUltraSSD, corev1.NodeSelectorOpIn, lo.FlatMap(available, func(o *cloudprovider.Offering, _ int) []string {
			return o.Requirements.Get(v1beta1.LabelUltraSSD).Values()
		})...),
		scheduling.NewRequirement(v1beta1.LabelSKUCPU, corev1.NodeSelectorOpIn, vcpus),
		scheduling.NewRequirement(v1beta1.LabelSKUMemory, corev1.NodeSelectorOpIn, memMiB),
		scheduling.NewRequirement(v1beta1.AKSLabelCPU, corev1.NodeSelectorOpIn, vcpus),
		scheduling.NewRequirement(v1beta1.AKSLabelMemory, corev1.NodeSelectorOpIn, memMiB),
		scheduling.NewRequirement(v1beta1.LabelSKUGPUCount, corev1.NodeSelectorOpIn, fmt.Sprint(gpuTotalCount(sku))),
		scheduling.NewRequirement(v1beta1.LabelSKUGPUManufacturer, corev1.NodeSelectorOpDoesNotExist),
		scheduling.NewRequirement(v1beta1.LabelSKUGPUName, corev1.NodeSelectorOpDoesNotExist),
		scheduling.NewRequirement(v1beta1.AKSLabelCluster, corev1.NodeSelectorOpIn, utils.NormalizeClusterResourceGroupNameForLabel(cl.NodeResourceGroup)),
		scheduling.NewRequirement(v1beta1.AKSLabelMode, corev1.NodeSelectorOpIn, v1beta1.ModeSystem, v1beta1.ModeUser),
		scheduling.NewRequirement(v1beta1.AKSLabelScaleSetPriority, corev1.NodeSelectorOpIn, v1beta1.ScaleSetPriorityRegular, v1beta1.ScaleSetPrioritySpot),
		scheduling.NewRequirement(v1beta1.AKSLabelPriority, corev1.NodeSelectorOpIn, v1beta1.PriorityRegular, v1beta1.PrioritySpot),
		scheduling.NewRequirement(v1beta1.AKSLabelOSSKU, corev1.NodeSelectorOpIn, v1beta1.GetOSSKUFromImageFamily(nc.ImageFamily)),
		scheduling.NewRequirement(v1beta1.AKSLabelFIPSEnabled, corev1.NodeSelectorOpDoesNotExist),
		scheduling.NewRequirement(v1beta1.LabelSKUName, corev1.NodeSelectorOpIn, sku.GetName()),
		scheduling.NewRequirement(v1beta1.LabelSKUFamily, corev1.NodeSelectorOpIn, vmsize.Family),
		scheduling.NewRequirement(v1beta1.LabelSKUSeries, corev1.NodeSelectorOpIn, vmsize.Series),
		scheduling.NewRequirement(v1beta1.LabelSKUVersion, corev1.NodeSelectorOpDoesNotExist),
		scheduling.NewRequirement(v1beta1.LabelSKUStorageEphemeralOSMaxSize, corev1.NodeSelectorOpDoesNotExist),
		scheduling.NewRequirement(v1beta1.LabelSKUStoragePremiumCapable, corev1.NodeSelectorOpIn, fmt.Sprint(sku.IsPremiumIO())),
		scheduling.NewRequirement(v1beta1.LabelSKUAcceleratedNetworking, corev1.NodeSelectorOpIn, fmt.Sprint(sku.IsAcceleratedNetworkingSupported())),
		scheduling.NewRequirement(v1beta1.LabelSKUHyperVGeneration, corev1.NodeSelectorOpDoesNotExist),
	)

	if sizeGB := maxEphemeralOSDiskGB(sku); sizeGB > 0 {
		reqs[v1beta1.LabelSKUStorageEphemeralOSMaxSize].Insert(fmt.Sprint(sizeGB))
	}
	if sku.IsHyperVGen1Supported() {
		reqs[v1beta1.LabelSKUHyperVGeneration].Insert(v1beta1.HyperVGenerationV1)
	}
	if sku.IsHyperVGen2Supported() {
		reqs[v1beta1.LabelSKUHyperVGeneration].Insert(v1beta1.HyperVGenerationV2)
	}
	if m := utils.GetGPUManufacturer(sku.GetName()); m == v1beta1.ManufacturerNvidia || m == v1beta1.ManufacturerAMD {
		reqs[v1beta1.LabelSKUGPUManufacturer].Insert(m)
		if vmsize.AcceleratorType != nil {
			reqs[v1beta1.LabelSKUGPUName].Insert(*vmsize.AcceleratorType)
		}
	}
	if v := utils.ExtractVersionFromVMSize(vmsize); v != "" {
		reqs[v1beta1.LabelSKUVersion].Insert(v)
	}
	if nc.fips() {
		reqs[v1beta1.AKSLabelFIPSEnabled].Insert("true")
	}
	return reqs
}

func vcpuCount(sku *skewer.SKU) int64 { return lo.Must(sku.VCPU()) }

// memoryMiB truncates: the API's "MemoryGB" is GiB and may be fractional.
func memoryMiB(sku *skewer.SKU) int64 { return int64(lo.Must(sku.Memory()) * 1024) }

// gpuTotalCount counts GPUs only for sizes in the supported-GPU list, like the
// sku-gpu-count label upstream.
func gpuTotalCount(sku *skewer.SKU) int64 {
	if !utils.IsGPUSKU(sku.GetName()) {
		return 0
	}
	n, err := sku.GPU()
	if err != nil {
		return 0
	}
	return n
}

// maxEphemeralOSDiskGB is the largest ephemeral OS disk the size can host, in
// decimal GB: NVMe placement when offered, else the cache disk, else the
// resource (temp) disk, whose "MB" capability is really MiB.
func maxEphemeralOSDiskGB(sku *skewer.SKU) int64 {
	const mib, gb = int64(1 << 20), int64(1_000_000_000)
	if !sku.IsEphemeralOSDiskSupported() {
		return 0
	}
	if nvme, _ := sku.GetCapabilityIntegerQuantity("NvmeDiskSizeInMiB"); nvme > 0 &&
		sku.HasCapabilityWithSeparator("SupportedEphemeralOSDiskPlacements", "NvmeDisk") {
		return nvme * mib / gb
	}
	if cache, _ := sku.MaxCachedDiskBytes(); cache > 0 {
		return cache / gb
	}
	if resourceMiB, _ := sku.MaxResourceVolumeMB(); resourceMiB > 0 {
		return resourceMiB * mib / gb
	}
	return 0
}
