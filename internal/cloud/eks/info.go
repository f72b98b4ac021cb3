package eks

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// ec2Info rebuilds, from the catalog's facts, the DescribeInstanceTypes record
// that the AWS provider's NewInstanceType reads. Only the fields it reads are
// set; every pointer it dereferences is set, so that it cannot panic.
func ec2Info(t *catalog.InstanceType) ec2types.InstanceTypeInfo {
	arch := ec2types.ArchitectureType(t.Arch)
	if t.Arch == "amd64" {
		arch = ec2types.ArchitectureTypeX8664
	}
	interfaces, ipv4 := int64(0), int64(0)
	switch {
	case t.ENI != nil:
		interfaces, ipv4 = t.ENI.Interfaces, t.ENI.IPv4PerInterface
	case t.ENILimitedPods != nil:
		// The VPC limits lack the type: one interface with density−1 addresses
		// gives upstream's formula (1 × (ips − 1) + 2) the printed density.
		// Reserved ENIs cannot be taken off it (Derive drops the type then).
		interfaces, ipv4 = 1, *t.ENILimitedPods-1
	}
	i := ec2types.InstanceTypeInfo{
		InstanceType: ec2types.InstanceType(t.Name),
		// The catalog has no usage classes: both are assumed, and an offering
		// without a price is unavailable (offerings.go).
		SupportedUsageClasses: []ec2types.UsageClassType{ec2types.UsageClassTypeOnDemand, ec2types.UsageClassTypeSpot},
		VCpuInfo:              &ec2types.VCpuInfo{DefaultVCpus: aws.Int32(int32(t.VCPU))},
		MemoryInfo:            &ec2types.MemoryInfo{SizeInMiB: aws.Int64(t.MemoryMiB)},
		ProcessorInfo: &ec2types.ProcessorInfo{
			SupportedArchitectures: []ec2types.ArchitectureType{arch},
			Manufacturer:           aws.String(t.CPUManufacturer),
		},
		Hypervisor: ec2types.InstanceTypeHypervisor(t.Hypervisor),
		NetworkInfo: &ec2types.NetworkInfo{
			EncryptionInTransitSupported: aws.Bool(t.EncryptionInTransit),
			DefaultNetworkCardIndex:      aws.Int32(0),
			NetworkCards:                 []ec2types.NetworkCardInfo{{NetworkCardIndex: aws.Int32(0), MaximumNetworkInterfaces: aws.Int32(int32(interfaces))}},
			Ipv4AddressesPerInterface:    aws.Int32(int32(ipv4)),
		},
	}
	if t.ClockMHz != nil {
		i.ProcessorInfo.SustainedClockSpeedInGhz = aws.Float64(float64(*t.ClockMHz) / 1000)
	}
	if t.EFAs > 0 {
		i.NetworkInfo.EfaInfo = &ec2types.EfaInfo{MaximumEfaInterfaces: aws.Int32(int32(t.EFAs))}
	}
	if t.LocalNVMeGB != nil {
		i.InstanceStorageInfo = &ec2types.InstanceStorageInfo{NvmeSupport: ec2types.EphemeralNvmeSupportRequired, TotalSizeInGB: t.LocalNVMeGB}
	}
	if t.EBSBandwidthMbps != nil {
		i.EbsInfo = &ec2types.EbsInfo{EbsOptimizedSupport: ec2types.EbsOptimizedSupportDefault,
			EbsOptimizedInfo: &ec2types.EbsOptimizedInfo{MaximumBandwidthInMbps: aws.Int32(int32(*t.EBSBandwidthMbps))}}
	}
	i.GpuInfo, i.NeuronInfo, i.InferenceAcceleratorInfo = devices(t)
	return i
}

// ec2Manufacturers: EC2 spells GPU makers NVIDIA, AMD, Habana, and upstream
// counts the extended resources by that spelling; the catalog keeps the
// label's lower case.
var ec2Manufacturers = map[string]string{"nvidia": "NVIDIA", "amd": "AMD", "habana": "Habana"}

func devices(t *catalog.InstanceType) (*ec2types.GpuInfo, *ec2types.NeuronInfo, *ec2types.InferenceAcceleratorInfo) {
	var gpu *ec2types.GpuInfo
	if g := t.GPU; g != nil {
		m := ec2Manufacturers[g.Manufacturer]
		if m == "" {
			m = g.Manufacturer
		}
		mem := &ec2types.GpuDeviceMemoryInfo{}
		if g.MemoryMiB != nil {
			mem.SizeInMiB = aws.Int32(int32(*g.MemoryMiB))
		}
		gpu = &ec2types.GpuInfo{Gpus: []ec2types.GpuDeviceInfo{{Name: aws.String(g.Name), Manufacturer: aws.String(m),
			Count: aws.Int32(int32(g.Count)), MemoryInfo: mem}}}
	} else if n := t.NVIDIAGPUs + t.AMDGPUs + t.HabanaGaudis; n > 0 {
		// Several kinds of GPU: upstream labels none, but counts each maker.
		gpu = &ec2types.GpuInfo{}
		for m, c := range map[string]int64{"NVIDIA": t.NVIDIAGPUs, "AMD": t.AMDGPUs, "Habana": t.HabanaGaudis} {
			if c > 0 {
				gpu.Gpus = append(gpu.Gpus, ec2types.GpuDeviceInfo{Manufacturer: aws.String(m), Count: aws.Int32(int32(c)), MemoryInfo: &ec2types.GpuDeviceMemoryInfo{}})
			}
		}
	}
	if t.NeuronDevices > 0 {
		name := ""
		if t.Accelerator != nil {
			name = t.Accelerator.Name
		}
		return gpu, &ec2types.NeuronInfo{NeuronDevices: []ec2types.NeuronDeviceInfo{{Name: aws.String(name),
			Count: aws.Int32(int32(t.NeuronDevices)), CoreInfo: &ec2types.NeuronDeviceCoreInfo{Count: aws.Int32(int32(t.NeuronCores / t.NeuronDevices))}}}}, nil
	}
	if a := t.Accelerator; a != nil {
		return gpu, nil, &ec2types.InferenceAcceleratorInfo{Accelerators: []ec2types.InferenceDeviceInfo{{
			Name: aws.String(a.Name), Manufacturer: aws.String(a.Manufacturer), Count: aws.Int32(int32(a.Count))}}}
	}
	return gpu, nil, nil
}
