package aks

// Reason is a stable code for why a SKU yields no instance type.
type Reason string

// Region-level reasons: Karpenter drops these SKUs when it lists the region's
// SKUs, whatever the node class. Their descriptions are the wording of the
// project's upstream golden data.
const (
	ReasonRestricted         Reason = "restricted"
	ReasonLocationRestricted Reason = "location-restricted"
	ReasonTooFewVCPUs        Reason = "too-few-vcpus"
	ReasonTooLittleMemory    Reason = "too-little-memory"
	ReasonAKSUnsupportedSize Reason = "aks-unsupported-size"
	ReasonUnsupportedGPU     Reason = "unsupported-gpu"
	ReasonConstrainedVCPUs   Reason = "constrained-vcpus"
	ReasonConfidential       Reason = "confidential"
	// The catalog has only documentation facts for the size, not the Resource
	// SKU capabilities Karpenter reads; the instance type cannot be derived.
	ReasonNoCapabilities Reason = "no-capabilities"
	// Karpenter skips sizes whose name or architecture it cannot parse.
	ReasonUnparseableSize     Reason = "unparseable-size"
	ReasonUnknownArchitecture Reason = "unknown-architecture"
)

// Node-class reasons: the AKSNodeClass settings exclude the SKU.
const (
	ReasonImageFamilyGPU    Reason = "image-family-gpu"
	ReasonEncryptionAtHost  Reason = "encryption-at-host"
	ReasonLocalDNS          Reason = "local-dns"
	ReasonGPUDriver         Reason = "gpu-driver"
	ReasonArtifactStreaming Reason = "artifact-streaming"
	ReasonTrustedLaunch     Reason = "trusted-launch"
)

var descriptions = map[Reason]string{
	ReasonRestricted:          "restricted-list (AKSRestrictedVMSizes or karpenterRestrictedVMSKUs)",
	ReasonLocationRestricted:  "location-restriction",
	ReasonTooFewVCPUs:         "vCPUs<2",
	ReasonTooLittleMemory:     "MemoryGB<3.5",
	ReasonAKSUnsupportedSize:  "AKSRestrictedVMSizes",
	ReasonUnsupportedGPU:      "GPU size not in the supported-GPU list",
	ReasonConstrainedVCPUs:    "constrained-vCPU size (e.g. M8-2ms)",
	ReasonConfidential:        "confidential (size starts with DC/EC)",
	ReasonNoCapabilities:      "no Resource SKU capabilities in the catalog",
	ReasonUnparseableSize:     "size name not parseable",
	ReasonUnknownArchitecture: "CpuArchitectureType missing",
	ReasonImageFamilyGPU:      "GPU size not supported by the image family",
	ReasonEncryptionAtHost:    "encryption at host not supported",
	ReasonLocalDNS:            "LocalDNS needs at least 4 vCPUs",
	ReasonGPUDriver:           "no managed GPU driver (gpu.mode Driver)",
	ReasonArtifactStreaming:   "artifact streaming not supported on arm64",
	ReasonTrustedLaunch:       "trusted launch not supported",
}

// Description is a short human explanation.
func (r Reason) Description() string {
	if d, ok := descriptions[r]; ok {
		return d
	}
	return string(r)
}

// NodeClassReason reports whether r depends on the node class rather than on the region.
func (r Reason) NodeClassReason() bool {
	switch r {
	case ReasonImageFamilyGPU, ReasonEncryptionAtHost, ReasonLocalDNS, ReasonGPUDriver, ReasonArtifactStreaming, ReasonTrustedLaunch:
		return true
	}
	return false
}
