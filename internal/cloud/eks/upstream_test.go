package eks

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"github.com/aws/karpenter-provider-aws/pkg/operator/options"
	"github.com/aws/karpenter-provider-aws/pkg/providers/instancetype"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

type variant struct {
	name     string
	ours     NodeClass
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
			ours:    NodeClass{Kubelet: Kubelet{MaxPods: &maxPods, PodsPerCore: &ppc}},
			kubelet: awsv1.KubeletConfiguration{MaxPods: &maxPods, PodsPerCore: &ppc}},
		{name: "AL2023 reserved and eviction", family: awsv1.AMIFamilyAL2023,
			ours:    NodeClass{Kubelet: Kubelet{KubeReserved: kr, SystemReserved: sr, EvictionHard: eh, EvictionSoft: es}},
			kubelet: awsv1.KubeletConfiguration{KubeReserved: kr, SystemReserved: sr, EvictionHard: eh, EvictionSoft: es}},
		{name: "AL2023 evictionHard quantities and 100%", family: awsv1.AMIFamilyAL2023,
			ours:    NodeClass{Kubelet: Kubelet{EvictionHard: map[string]string{"memory.available": "750Mi", "nodefs.available": "100%"}}},
			kubelet: awsv1.KubeletConfiguration{EvictionHard: map[string]string{"memory.available": "750Mi", "nodefs.available": "100%"}}},
		{name: "AL2023 root volume 80Gi", family: awsv1.AMIFamilyAL2023,
			ours: NodeClass{BlockDeviceMappings: []BlockDeviceMapping{{DeviceName: "/dev/xvda", RootVolume: true, VolumeSize: q("80Gi")}}},
			bdms: []*awsv1.BlockDeviceMapping{{DeviceName: aws.String("/dev/xvda"), RootVolume: true, EBS: &awsv1.BlockDevice{VolumeSize: q("80Gi")}}}},
		{name: "AL2023 RAID0", family: awsv1.AMIFamilyAL2023, policy: &raid,
			ours: NodeClass{InstanceStorePolicy: "RAID0"}},
		{name: "Bottlerocket maxPods 58 podsPerCore 4, data volume 100Gi", family: awsv1.AMIFamilyBottlerocket,
			ours: NodeClass{AMIFamily: AMIFamilyBottlerocket, Kubelet: Kubelet{MaxPods: &maxPods, PodsPerCore: &ppc},
				BlockDeviceMappings: []BlockDeviceMapping{{DeviceName: "/dev/xvda", VolumeSize: q("4Gi")}, {DeviceName: "/dev/xvdb", VolumeSize: q("100Gi")}}},
			kubelet: awsv1.KubeletConfiguration{MaxPods: &maxPods, PodsPerCore: &ppc},
			bdms: []*awsv1.BlockDeviceMapping{{DeviceName: aws.String("/dev/xvda"), EBS: &awsv1.BlockDevice{VolumeSize: q("4Gi")}},
				{DeviceName: aws.String("/dev/xvdb"), EBS: &awsv1.BlockDevice{VolumeSize: q("100Gi")}}}},
		{name: "Custom, last volume 50Gi, reserved ENIs 1", family: awsv1.AMIFamilyCustom, reserved: 1,
			ours: NodeClass{AMIFamily: AMIFamilyCustom, BlockDeviceMappings: []BlockDeviceMapping{{DeviceName: "/dev/sda1", VolumeSize: q("30Gi")}, {DeviceName: "/dev/sdb", VolumeSize: q("50Gi")}}},
			bdms: []*awsv1.BlockDeviceMapping{{DeviceName: aws.String("/dev/sda1"), EBS: &awsv1.BlockDevice{VolumeSize: q("30Gi")}},
				{DeviceName: aws.String("/dev/sdb"), EBS: &awsv1.BlockDevice{VolumeSize: q("50Gi")}}}},
		{name: "AL2", family: awsv1.AMIFamilyAL2, ours: NodeClass{AMIFamily: AMIFamilyAL2}},
		{name: "Windows2022 podsPerCore 4", family: awsv1.AMIFamilyWindows2022,
			ours:    NodeClass{AMIFamily: AMIFamilyWindows2022, Kubelet: Kubelet{PodsPerCore: &ppc}},
			kubelet: awsv1.KubeletConfiguration{PodsPerCore: &ppc}},
		{name: "Windows2019 on arm64 too", family: awsv1.AMIFamilyWindows2019, ours: NodeClass{AMIFamily: AMIFamilyWindows2019}},
	}
}

// TestDerivationMatchesUpstreamCode: for every instance type and each
// node-class variant, Derive equals the AWS provider's NewInstanceType called
// directly with upstream's own EC2NodeClass types (so the mapping of NodeClass
// onto its arguments is checked), except where Derive deliberately departs:
// no zone requirement (the catalog has no zones), and the pod-ENI count and
// Windows private IPv4 capacity from the catalog's VPC limits where they differ
// from those compiled into v1.14.1.
func TestDerivationMatchesUpstreamCode(t *testing.T) {
	cat := catalog.Default()
	const region = "us-east-1"
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			ctx := options.ToContext(context.Background(), &options.Options{VMMemoryOverheadPercent: 0.075, ReservedENIs: v.reserved})
			o := DefaultOptions()
			o.ReservedENIs = v.reserved
			ours, dropped, err := Derive(cat, region, v.ours, o)
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]*cloudprovider.InstanceType{}
			for _, it := range ours {
				byName[it.Name] = it
			}
			compared, vintage := 0, 0
			var failures []string
			for i := range cat.Types {
				ct := &cat.Types[i]
				mine := byName[ct.Name]
				if mine == nil {
					continue
				}
				kc := v.kubelet
				up := instancetype.NewInstanceType(ctx, ec2Info(ct), region, nil, nil, v.bdms, v.policy, nil, kc.MaxPods, kc.PodsPerCore,
					kc.KubeReserved, kc.SystemReserved, kc.EvictionHard, kc.EvictionSoft, v.family, nil)
				if z := up.Requirements.Get(corev1.LabelTopologyZone); z.Operator() != corev1.NodeSelectorOpDoesNotExist {
					failures = append(failures, ct.Name+": upstream's zone requirement without zones is "+z.String())
				}
				if _, ok := mine.Requirements[corev1.LabelTopologyZone]; ok {
					failures = append(failures, ct.Name+": zone requirement not removed")
				}
				var d []string
				counted := false
				for _, line := range compare(up, mine) {
					switch {
					case strings.HasPrefix(line, "capacity vpc.amazonaws.com/pod-eni:") && branchesDiffer(ct),
						strings.HasPrefix(line, "capacity vpc.amazonaws.com/PrivateIPv4Address:") && ipv4Differs(ct):
						if !counted {
							vintage++
							counted = true
						}
					default:
						d = append(d, line)
					}
				}
				if len(d) > 0 {
					failures = append(failures, ct.Name+": "+strings.Join(d, "; "))
				}
				compared++
			}
			t.Logf("%d types compared with upstream's NewInstanceType (%d dropped by Derive); %d differ only where the catalog's VPC limits differ from those compiled into v1.14.1 (pod-ENI, Windows private IPv4)", compared, len(dropped), vintage)
			if compared+len(dropped) != len(cat.Types) {
				t.Errorf("%d compared + %d dropped != %d types", compared, len(dropped), len(cat.Types))
			}
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
		case corev1.LabelTopologyZone:
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
		if _, ok := up.Requirements[key]; !ok {
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
