package upstreamparity

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/aws/karpenter-provider-aws/pkg/operator/options"
	"github.com/aws/karpenter-provider-aws/pkg/providers/instancetype"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// info rebuilds the DescribeInstanceTypes record upstream's code reads from the
// catalog's facts. Types the VPC limits lack have no ENI facts and cannot be
// rebuilt (false).
func info(t *catalog.InstanceType) (ec2types.InstanceTypeInfo, bool) {
	if t.ENI == nil {
		return ec2types.InstanceTypeInfo{}, false
	}
	arch := map[string]ec2types.ArchitectureType{"amd64": "x86_64", "arm64": "arm64"}[t.Arch]
	i := ec2types.InstanceTypeInfo{
		InstanceType:          ec2types.InstanceType(t.Name),
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
			NetworkCards:                 []ec2types.NetworkCardInfo{{NetworkCardIndex: aws.Int32(0), MaximumNetworkInterfaces: aws.Int32(int32(t.ENI.Interfaces))}},
			Ipv4AddressesPerInterface:    aws.Int32(int32(t.ENI.IPv4PerInterface)),
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
	// EC2 spells manufacturers as NVIDIA, AMD, Habana; upstream counts by that spelling.
	ec2Manufacturer := map[string]string{"nvidia": "NVIDIA", "amd": "AMD", "habana": "Habana"}
	if g := t.GPU; g != nil {
		m := ec2Manufacturer[g.Manufacturer]
		if m == "" {
			m = g.Manufacturer
		}
		i.GpuInfo = &ec2types.GpuInfo{Gpus: []ec2types.GpuDeviceInfo{{Name: aws.String(g.Name), Manufacturer: aws.String(m),
			Count: aws.Int32(int32(g.Count)), MemoryInfo: &ec2types.GpuDeviceMemoryInfo{SizeInMiB: aws.Int32(int32(*g.MemoryMiB))}}}}
	}
	if t.NeuronDevices > 0 {
		i.NeuronInfo = &ec2types.NeuronInfo{NeuronDevices: []ec2types.NeuronDeviceInfo{{Name: aws.String(t.Accelerator.Name),
			Count: aws.Int32(int32(t.NeuronDevices)), CoreInfo: &ec2types.NeuronDeviceCoreInfo{Count: aws.Int32(int32(t.NeuronCores / t.NeuronDevices))}}}}
	} else if a := t.Accelerator; a != nil {
		i.InferenceAcceleratorInfo = &ec2types.InferenceAcceleratorInfo{Accelerators: []ec2types.InferenceDeviceInfo{{
			Name: aws.String(a.Name), Manufacturer: aws.String(a.Manufacturer), Count: aws.Int32(int32(a.Count))}}}
	}
	return i, true
}

type variant struct {
	name     string
	ours     eks.NodeClass
	family   string
	bdms     []*awsv1.BlockDeviceMapping
	policy   *awsv1.InstanceStorePolicy
	kubelet  awsv1.KubeletConfiguration
	reserved int
}

func q(s string) *resource.Quantity { v := resource.MustParse(s); return &v }

func variants() []variant {
	maxPods, ppc := int32(58), int32(4)
	raid := awsv1.InstanceStorePolicyRAID0
	kr := map[string]string{"cpu": "250m", "memory": "1Gi", "ephemeral-storage": "3Gi"}
	sr := map[string]string{"cpu": "100m", "memory": "200Mi", "pid": "1000"}
	eh := map[string]string{"memory.available": "5%", "nodefs.available": "15%"}
	es := map[string]string{"memory.available": "10%"}
	return []variant{
		{name: "default AL2023", family: awsv1.AMIFamilyAL2023},
		{name: "AL2023 maxPods 58 podsPerCore 4", family: awsv1.AMIFamilyAL2023,
			ours:    eks.NodeClass{Kubelet: eks.Kubelet{MaxPods: &maxPods, PodsPerCore: &ppc}},
			kubelet: awsv1.KubeletConfiguration{MaxPods: &maxPods, PodsPerCore: &ppc}},
		{name: "AL2023 reserved and eviction", family: awsv1.AMIFamilyAL2023,
			ours:    eks.NodeClass{Kubelet: eks.Kubelet{KubeReserved: kr, SystemReserved: sr, EvictionHard: eh, EvictionSoft: es}},
			kubelet: awsv1.KubeletConfiguration{KubeReserved: kr, SystemReserved: sr, EvictionHard: eh, EvictionSoft: es}},
		{name: "AL2023 evictionHard quantities and 100%", family: awsv1.AMIFamilyAL2023,
			ours:    eks.NodeClass{Kubelet: eks.Kubelet{EvictionHard: map[string]string{"memory.available": "750Mi", "nodefs.available": "100%"}}},
			kubelet: awsv1.KubeletConfiguration{EvictionHard: map[string]string{"memory.available": "750Mi", "nodefs.available": "100%"}}},
		{name: "AL2023 root volume 80Gi", family: awsv1.AMIFamilyAL2023,
			ours: eks.NodeClass{BlockDeviceMappings: []eks.BlockDeviceMapping{{DeviceName: "/dev/xvda", RootVolume: true, VolumeSize: q("80Gi")}}},
			bdms: []*awsv1.BlockDeviceMapping{{DeviceName: aws.String("/dev/xvda"), RootVolume: true, EBS: &awsv1.BlockDevice{VolumeSize: q("80Gi")}}}},
		{name: "AL2023 RAID0", family: awsv1.AMIFamilyAL2023, policy: &raid,
			ours: eks.NodeClass{InstanceStorePolicy: "RAID0"}},
		{name: "Bottlerocket maxPods 58 podsPerCore 4, data volume 100Gi", family: awsv1.AMIFamilyBottlerocket,
			ours: eks.NodeClass{AMIFamily: eks.AMIFamilyBottlerocket, Kubelet: eks.Kubelet{MaxPods: &maxPods, PodsPerCore: &ppc},
				BlockDeviceMappings: []eks.BlockDeviceMapping{{DeviceName: "/dev/xvda", VolumeSize: q("4Gi")}, {DeviceName: "/dev/xvdb", VolumeSize: q("100Gi")}}},
			kubelet: awsv1.KubeletConfiguration{MaxPods: &maxPods, PodsPerCore: &ppc},
			bdms: []*awsv1.BlockDeviceMapping{{DeviceName: aws.String("/dev/xvda"), EBS: &awsv1.BlockDevice{VolumeSize: q("4Gi")}},
				{DeviceName: aws.String("/dev/xvdb"), EBS: &awsv1.BlockDevice{VolumeSize: q("100Gi")}}}},
		{name: "Custom, last volume 50Gi, reserved ENIs 1", family: awsv1.AMIFamilyCustom, reserved: 1,
			ours: eks.NodeClass{AMIFamily: eks.AMIFamilyCustom, BlockDeviceMappings: []eks.BlockDeviceMapping{{DeviceName: "/dev/sda1", VolumeSize: q("30Gi")}, {DeviceName: "/dev/sdb", VolumeSize: q("50Gi")}}},
			bdms: []*awsv1.BlockDeviceMapping{{DeviceName: aws.String("/dev/sda1"), EBS: &awsv1.BlockDevice{VolumeSize: q("30Gi")}},
				{DeviceName: aws.String("/dev/sdb"), EBS: &awsv1.BlockDevice{VolumeSize: q("50Gi")}}}},
		{name: "AL2", family: awsv1.AMIFamilyAL2, ours: eks.NodeClass{AMIFamily: eks.AMIFamilyAL2}},
		{name: "Windows2022 podsPerCore 4", family: awsv1.AMIFamilyWindows2022,
			ours:    eks.NodeClass{AMIFamily: eks.AMIFamilyWindows2022, Kubelet: eks.Kubelet{PodsPerCore: &ppc}},
			kubelet: awsv1.KubeletConfiguration{PodsPerCore: &ppc}},
		{name: "Windows2019 on arm64 too", family: awsv1.AMIFamilyWindows2019, ours: eks.NodeClass{AMIFamily: eks.AMIFamilyWindows2019}},
	}
}

// TestDerivationMatchesUpstreamCode: for every instance type with ENI facts
// and each node-class variant, internal/cloud/eks's requirements, capacity and
// overhead equal those of the AWS provider's NewInstanceType (v1.14.1, run
// here) on the same facts. Two inputs are upstream's own tables compiled into
// its binary, not the catalog: the pod-ENI counts (its VPC limits of
// 2026-05-18) and the network bandwidth label; they are compared apart.
func TestDerivationMatchesUpstreamCode(t *testing.T) {
	cat := catalog.Default()
	const region = "us-east-1"
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			ctx := options.ToContext(context.Background(), &options.Options{VMMemoryOverheadPercent: 0.075, ReservedENIs: v.reserved})
			o := eks.DefaultOptions()
			o.ReservedENIs = v.reserved
			ours, _, err := eks.Derive(cat, region, v.ours, o)
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]*cloudprovider.InstanceType{}
			for _, it := range ours {
				byName[it.Name] = it
			}
			compared, skipped, podENI := 0, 0, 0
			var failures []string
			for i := range cat.Types {
				ct := &cat.Types[i]
				in, ok := info(ct)
				if !ok {
					skipped++
					continue
				}
				mine := byName[ct.Name]
				if mine == nil {
					failures = append(failures, ct.Name+": not derived")
					continue
				}
				kc := v.kubelet
				up := instancetype.NewInstanceType(ctx, in, region, nil, nil, v.bdms, v.policy, nil, kc.MaxPods, kc.PodsPerCore,
					kc.KubeReserved, kc.SystemReserved, kc.EvictionHard, kc.EvictionSoft, v.family, nil)
				var d []string
				vintage := false
				for _, line := range compare(up, mine) {
					// Upstream's compiled VPC limits, not the catalog, feed these two.
					if (strings.HasPrefix(line, "capacity vpc.amazonaws.com/pod-eni:") && branchesDiffer(ct)) ||
						(strings.HasPrefix(line, "capacity vpc.amazonaws.com/PrivateIPv4Address:") && ipv4Differs(ct)) {
						vintage = true
						continue
					}
					d = append(d, line)
				}
				if vintage && len(d) == 0 {
					podENI++
				}
				if len(d) > 0 {
					failures = append(failures, ct.Name+": "+strings.Join(d, "; "))
				}
				compared++
			}
			t.Logf("%d types compared with upstream's NewInstanceType, %d without ENI facts skipped, %d differ only where upstream's compiled VPC limits are older (pod-eni, Windows private IPv4)", compared, skipped, podENI)
			if len(failures) > 10 {
				failures = append(failures[:10], fmt.Sprintf("... and %d more", len(failures)-10))
			}
			for _, f := range failures {
				t.Error(f)
			}
		})
	}
}

// branchesDiffer: upstream's compiled VPC limits (v1.14.1: generated
// 2026-05-18) and the catalog's (main, 2026-08-06) disagree on the type's
// branch interfaces, the one input of the pod-ENI count.
func branchesDiffer(t *catalog.InstanceType) bool {
	up, ok := instancetype.Limits[t.Name]
	upBranches := int64(0)
	if ok && up.IsTrunkingCompatible {
		upBranches = int64(up.BranchInterface)
	}
	ours := int64(0)
	if t.ENI != nil && t.ENI.Trunking {
		ours = t.ENI.BranchInterfaces
	}
	return upBranches != ours
}

// ipv4Differs: the same tables disagree on IPv4 addresses per interface, the
// input of Windows nodes' private IPv4 capacity.
func ipv4Differs(t *catalog.InstanceType) bool {
	up, ok := instancetype.Limits[t.Name]
	upIPs := int64(0)
	if ok {
		upIPs = int64(up.IPv4PerInterface)
	}
	return t.ENI == nil || upIPs != t.ENI.IPv4PerInterface
}

func compare(up, mine *cloudprovider.InstanceType) []string {
	var out []string
	for key, ur := range up.Requirements {
		switch key {
		case corev1.LabelTopologyZone, karpv1.CapacityTypeLabelKey, awsv1.LabelInstanceNetworkBandwidth:
			continue
		}
		mr, ok := mine.Requirements[key]
		if !ok {
			out = append(out, "requirement "+key+": missing")
			continue
		}
		if ur.String() != mr.String() {
			out = append(out, fmt.Sprintf("requirement %s: upstream %s, ours %s", key, ur, mr))
		}
	}
	for key := range mine.Requirements {
		if _, ok := up.Requirements[key]; !ok && key != karpv1.CapacityTypeLabelKey {
			out = append(out, "requirement "+key+": not upstream's")
		}
	}
	out = append(out, lists("capacity", up.Capacity, mine.Capacity)...)
	out = append(out, lists("kubeReserved", up.Overhead.KubeReserved, mine.Overhead.KubeReserved)...)
	out = append(out, lists("systemReserved", up.Overhead.SystemReserved, mine.Overhead.SystemReserved)...)
	out = append(out, lists("evictionThreshold", up.Overhead.EvictionThreshold, mine.Overhead.EvictionThreshold)...)
	sort.Strings(out)
	return out
}

// lists compares values and their printed form: 940m and 0.94 are equal
// quantities but print differently in a plan.
func lists(what string, up, mine corev1.ResourceList) []string {
	var out []string
	for k, u := range up {
		m, ok := mine[k]
		if !ok {
			out = append(out, fmt.Sprintf("%s %s: upstream %s, ours missing", what, k, u.String()))
			continue
		}
		if u.Cmp(m) != 0 || u.String() != m.String() {
			out = append(out, fmt.Sprintf("%s %s: upstream %s, ours %s", what, k, u.String(), m.String()))
		}
	}
	for k, m := range mine {
		if _, ok := up[k]; !ok {
			out = append(out, fmt.Sprintf("%s %s: ours %s, not upstream's", what, k, m.String()))
		}
	}
	return out
}
