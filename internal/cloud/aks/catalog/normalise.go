package catalog

import (
	"fmt"
	"strconv"
	"strings"
)

// Resource SKU capability names as the API spells them.
const (
	CapVCPUs                     = "vCPUs"
	CapVCPUsAvailable            = "vCPUsAvailable"
	CapVCPUsPerCore              = "vCPUsPerCore"
	CapMemoryGB                  = "MemoryGB"
	CapCPUArchitecture           = "CpuArchitectureType"
	CapGPUs                      = "GPUs"
	CapHyperVGenerations         = "HyperVGenerations"
	CapAcceleratedNetworking     = "AcceleratedNetworkingEnabled"
	CapPremiumIO                 = "PremiumIO"
	CapEphemeralOSDisk           = "EphemeralOSDiskSupported"
	CapEphemeralOSDiskPlacements = "SupportedEphemeralOSDiskPlacements"
	CapCachedDiskBytes           = "CachedDiskBytes"
	CapMaxResourceVolumeMB       = "MaxResourceVolumeMB"
	CapNVMeDiskSizeInMiB         = "NvmeDiskSizeInMiB"
	CapMaxDataDiskCount          = "MaxDataDiskCount"
	CapMaxNetworkInterfaces      = "MaxNetworkInterfaces"
	CapUltraSSDAvailable         = "UltraSSDAvailable"
	CapEncryptionAtHost          = "EncryptionAtHostSupported"
	CapConfidentialComputingType = "ConfidentialComputingType"
	CapTrustedLaunchDisabled     = "TrustedLaunchDisabled"
	CapLowPriorityCapable        = "LowPriorityCapable"
	CapParentSize                = "ParentSize"
	CapRetirementDateUtc         = "RetirementDateUtc"
)

// azureArch maps CpuArchitectureType to the kubernetes.io/arch spelling.
var azureArch = map[string]string{"x64": "amd64", "Arm64": "arm64"}

// NormaliseFromCapabilities fills the typed facts of s from its raw capabilities.
// Facts the capabilities do not state stay unknown, except GPU count, which the
// API omits for sizes without GPUs: outside the N family that absence means 0.
func NormaliseFromCapabilities(s *SKU) error {
	caps := s.Capabilities
	str := func(name string) (string, bool) { return lookupCapability(caps, name) }
	integer := func(name string) (OptInt, error) {
		v, ok := str(name)
		if !ok {
			return OptInt{}, nil
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return OptInt{}, fmt.Errorf("%s: capability %s=%q is not an integer", s.Name, name, v)
		}
		return IntOf(n), nil
	}
	boolean := func(name string) Tristate {
		v, ok := str(name)
		if !ok {
			return Unknown
		}
		return TristateOf(strings.EqualFold(v, "True"))
	}

	vcpus, err := integer(CapVCPUs)
	if err != nil {
		return err
	}
	if !vcpus.Known {
		return fmt.Errorf("%s: capabilities lack %s", s.Name, CapVCPUs)
	}
	s.VCPUs = vcpus.Value
	mem, ok := str(CapMemoryGB)
	if !ok {
		return fmt.Errorf("%s: capabilities lack %s", s.Name, CapMemoryGB)
	}
	if s.MemoryGiB, err = strconv.ParseFloat(strings.TrimSpace(mem), 64); err != nil {
		return fmt.Errorf("%s: capability %s=%q is not a number", s.Name, CapMemoryGB, mem)
	}
	if a, ok := str(CapCPUArchitecture); ok {
		if k, known := azureArch[a]; known {
			s.Arch = k
		} else {
			s.Arch = a
		}
	}
	ints := []struct {
		dst  *OptInt
		name string
	}{
		{&s.VCPUsAvailable, CapVCPUsAvailable},
		{&s.VCPUsPerCore, CapVCPUsPerCore},
		{&s.GPUCount, CapGPUs},
		{&s.CachedDiskBytes, CapCachedDiskBytes},
		{&s.ResourceDiskMiB, CapMaxResourceVolumeMB},
		{&s.NVMeDiskMiB, CapNVMeDiskSizeInMiB},
		{&s.MaxDataDisks, CapMaxDataDiskCount},
		{&s.MaxNetworkInterfaces, CapMaxNetworkInterfaces},
	}
	for _, f := range ints {
		if *f.dst, err = integer(f.name); err != nil {
			return err
		}
	}
	if !s.GPUCount.Known && !strings.HasPrefix(s.Size, "N") {
		s.GPUCount = IntOf(0)
	}
	if v, ok := str(CapHyperVGenerations); ok {
		s.HyperVGenerations = splitList(v)
	}
	if v, ok := str(CapEphemeralOSDiskPlacements); ok {
		s.EphemeralOSDiskPlacements = splitList(v)
	}
	s.AcceleratedNetworking = boolean(CapAcceleratedNetworking)
	s.PremiumIO = boolean(CapPremiumIO)
	s.EphemeralOSDisk = boolean(CapEphemeralOSDisk)
	s.UltraSSD = boolean(CapUltraSSDAvailable)
	s.EncryptionAtHost = boolean(CapEncryptionAtHost)
	s.TrustedLaunchDisabled = boolean(CapTrustedLaunchDisabled)
	s.LowPriorityCapable = boolean(CapLowPriorityCapable)
	s.ConfidentialComputingType, ok = str(CapConfidentialComputingType)
	s.Confidential = TristateOf(ok)
	s.ParentSize, _ = str(CapParentSize)
	s.RetirementDate, _ = str(CapRetirementDateUtc)
	return nil
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// SizeFromName returns the size part of an ARM SKU name ("Standard_D2s_v3" →
// "D2s_v3"), which is how the Resource SKUs API fills its size field.
func SizeFromName(name string) string {
	if i := strings.IndexByte(name, '_'); i >= 0 {
		return name[i+1:]
	}
	return name
}
