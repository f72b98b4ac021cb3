package aks

import (
	"strings"

	"github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	"github.com/Azure/karpenter-provider-azure/pkg/utils"
	skuutil "github.com/Azure/karpenter-provider-azure/pkg/utils/sku"
	"github.com/Azure/skewer"
	"k8s.io/apimachinery/pkg/util/sets"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// The Azure provider's exclusion lists (pkg/providers/instancetype/skus.go in
// v1.14.2): sizes AKS refuses, and sizes known to misbehave under Karpenter.
var (
	aksRestrictedSizes = sets.New(
		"Standard_A0", "Standard_A1", "Standard_A1_v2", "Standard_B1s", "Standard_B1ms", "Standard_F1", "Standard_F1s",
		"Basic_A0", "Basic_A1", "Basic_A2", "Basic_A3", "Basic_A4",
	)
	karpenterRestrictedSizes = sets.New("Standard_E64i_v3", "Standard_E64is_v3")
)

// regionReasons lists every reason Karpenter's region-wide SKU listing
// (UpdateInstanceTypes) would drop sku for. Upstream stops at the first; all are
// reported here so a finding can say everything that is wrong at once.
func regionReasons(sku *skewer.SKU, region string) []Reason {
	var out []Reason
	name := sku.GetName()
	if aksRestrictedSizes.Has(name) || karpenterRestrictedSizes.Has(name) {
		out = append(out, ReasonRestricted)
	}
	if sku.HasLocationRestriction(region) {
		out = append(out, ReasonLocationRestricted)
	}
	if cpu, err := sku.VCPU(); err != nil || cpu < 2 {
		out = append(out, ReasonTooFewVCPUs)
	}
	if mem, err := sku.Memory(); err != nil || mem < 3.5 {
		out = append(out, ReasonTooLittleMemory)
	}
	if aksRestrictedSizes.Has(name) {
		out = append(out, ReasonAKSUnsupportedSize)
	}
	if gpus, err := sku.GPU(); err == nil && gpus > 0 && !utils.IsGPUSKU(name) {
		out = append(out, ReasonUnsupportedGPU)
	}
	vmsize, err := sku.GetVMSize()
	switch {
	case err != nil:
		out = append(out, ReasonUnparseableSize)
	case vmsize.CpusConstrained != nil:
		out = append(out, ReasonConstrainedVCPUs)
	}
	if skuutil.IsConfidential(sku.GetSize()) {
		out = append(out, ReasonConfidential)
	}
	if _, err := sku.GetCPUArchitectureType(); err != nil {
		out = append(out, ReasonUnknownArchitecture)
	}
	return out
}

// nodeClassReasons mirrors the provider's per-AKSNodeClass filters, plus the
// trusted-launch gate of later provider versions.
func nodeClassReasons(sku *skewer.SKU, architecture string, nc NodeClass) []Reason {
	var out []Reason
	name := sku.GetName()
	if !supportedByImageFamily(name, nc.ImageFamily) {
		out = append(out, ReasonImageFamilyGPU)
	}
	if nc.EncryptionAtHost {
		if v, err := sku.GetCapabilityString("EncryptionAtHostSupported"); err != nil || !strings.EqualFold(v, "True") {
			out = append(out, ReasonEncryptionAtHost)
		}
	}
	if nc.LocalDNS {
		if cpu, err := sku.VCPU(); err != nil || cpu < 4 || memoryMiB(sku) < 244 {
			out = append(out, ReasonLocalDNS)
		}
	}
	if nc.GPUMode == string(v1beta1.GPUModeDriver) && utils.IsGPUSKU(name) && !utils.IsDriverInstallSupported(name) {
		out = append(out, ReasonGPUDriver)
	}
	if nc.ArtifactStreaming && kubeArch(architecture) == karpv1.ArchitectureArm64 {
		out = append(out, ReasonArtifactStreaming)
	}
	if nc.trustedLaunch() {
		if ok, _ := sku.IsTrustedLaunchEnabled(); !ok {
			out = append(out, ReasonTrustedLaunch)
		}
	}
	return out
}

func supportedByImageFamily(name, imageFamily string) bool {
	if !utils.IsGPUSKU(name) {
		return true
	}
	switch {
	case v1beta1.UbuntuFamilies.Has(imageFamily):
		return utils.IsGPUSKUSupportedOnOS(name, "ubuntu")
	case imageFamily == v1beta1.AzureLinuxImageFamily:
		return utils.IsGPUSKUSupportedOnOS(name, "azurelinux") || utils.IsGPUSKUSupportedOnOS(name, "azurelinux3")
	default:
		return false
	}
}

func kubeArch(azure string) string {
	if k, ok := v1beta1.AzureToKubeArchitectures[azure]; ok {
		return k
	}
	return azure
}
