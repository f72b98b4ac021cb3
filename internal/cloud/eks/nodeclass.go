package eks

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// AMI families of EC2NodeClass (spec.amiFamily, or implied by an
// amiSelectorTerms alias such as al2023@latest): the AWS provider's own.
var (
	AMIFamilyAL2023       = awsv1.AMIFamilyAL2023
	AMIFamilyAL2          = awsv1.AMIFamilyAL2
	AMIFamilyBottlerocket = awsv1.AMIFamilyBottlerocket
	AMIFamilyCustom       = awsv1.AMIFamilyCustom
	AMIFamilyWindows2019  = awsv1.AMIFamilyWindows2019
	AMIFamilyWindows2022  = awsv1.AMIFamilyWindows2022
	AMIFamilyWindows2025  = awsv1.AMIFamilyWindows2025
)

// amiFamilies are the values spec.amiFamily admits, in the CRD's order.
var amiFamilies = []string{AMIFamilyAL2, AMIFamilyAL2023, AMIFamilyBottlerocket, AMIFamilyCustom, AMIFamilyWindows2019, AMIFamilyWindows2022, AMIFamilyWindows2025}

// NodeClass is what the instance-type derivation reads from an EC2NodeClass
// (karpenter.k8s.aws/v1): the AMI family, spec.kubelet, spec.blockDeviceMappings
// and spec.instanceStorePolicy. Field paths in error messages are the
// EC2NodeClass's own (spec.kubelet.maxPods, ...). The zero value is the default
// AL2023 node class of upstream's docs.
type NodeClass struct {
	// AMIFamily is one of the AMIFamily* constants; "" means AL2023.
	AMIFamily           string
	Kubelet             Kubelet
	BlockDeviceMappings []BlockDeviceMapping
	// InstanceStorePolicy is "" or "RAID0".
	InstanceStorePolicy string
}

// Kubelet is spec.kubelet of an EC2NodeClass, the fields that change an
// instance type's capacity or overhead.
type Kubelet struct {
	MaxPods        *int32
	PodsPerCore    *int32
	KubeReserved   map[string]string
	SystemReserved map[string]string
	EvictionHard   map[string]string
	// EvictionSoft is accepted for completeness: upstream does not let it
	// reduce allocatable (a soft threshold only warns).
	EvictionSoft map[string]string
}

// BlockDeviceMapping is one entry of spec.blockDeviceMappings.
type BlockDeviceMapping struct {
	DeviceName string
	RootVolume bool
	// VolumeSize is ebs.volumeSize; nil when not set.
	VolumeSize *resource.Quantity
}

// familyName is the node class's AMI family, "" meaning AL2023 (upstream's
// amifamily.GetAMIFamily would take "" for AL2).
func (nc NodeClass) familyName() string {
	if nc.AMIFamily == "" {
		return AMIFamilyAL2023
	}
	return nc.AMIFamily
}

// upstream converts the node class to the arguments of the AWS provider's
// NewInstanceType (block devices and instance store policy; the kubelet maps
// are passed as they are).
func (nc NodeClass) upstream() ([]*awsv1.BlockDeviceMapping, *awsv1.InstanceStorePolicy) {
	var bdms []*awsv1.BlockDeviceMapping
	for _, b := range nc.BlockDeviceMappings {
		bdms = append(bdms, &awsv1.BlockDeviceMapping{DeviceName: aws.String(b.DeviceName), RootVolume: b.RootVolume,
			EBS: &awsv1.BlockDevice{VolumeSize: b.VolumeSize}})
	}
	var policy *awsv1.InstanceStorePolicy
	if nc.InstanceStorePolicy != "" {
		p := awsv1.InstanceStorePolicy(nc.InstanceStorePolicy)
		policy = &p
	}
	return bdms, policy
}

// check reports every invalid setting at its EC2NodeClass path. The API server
// rejects most of these through the CRD; checking again keeps the derivation
// free of panics on input that did not pass through it.
func (nc NodeClass) check() []string {
	var errs []string
	if nc.AMIFamily != "" && !slices.Contains(amiFamilies, nc.AMIFamily) {
		errs = append(errs, fmt.Sprintf("spec.amiFamily: unknown AMI family %q; valid: %s", nc.AMIFamily, strings.Join(amiFamilies, ", ")))
	}
	if p := nc.Kubelet.MaxPods; p != nil && *p < 0 {
		errs = append(errs, fmt.Sprintf("spec.kubelet.maxPods: %d is negative; valid: 0 or more", *p))
	}
	if p := nc.Kubelet.PodsPerCore; p != nil && *p < 0 {
		errs = append(errs, fmt.Sprintf("spec.kubelet.podsPerCore: %d is negative; valid: 0 or more", *p))
	}
	errs = append(errs, checkQuantities("spec.kubelet.kubeReserved", nc.Kubelet.KubeReserved)...)
	errs = append(errs, checkQuantities("spec.kubelet.systemReserved", nc.Kubelet.SystemReserved)...)
	errs = append(errs, checkSignals("spec.kubelet.evictionHard", nc.Kubelet.EvictionHard)...)
	errs = append(errs, checkSignals("spec.kubelet.evictionSoft", nc.Kubelet.EvictionSoft)...)
	errs = append(errs, checkKeys("spec.kubelet.kubeReserved", nc.Kubelet.KubeReserved, reservedKeys)...)
	errs = append(errs, checkKeys("spec.kubelet.systemReserved", nc.Kubelet.SystemReserved, reservedKeys)...)
	errs = append(errs, checkKeys("spec.kubelet.evictionHard", nc.Kubelet.EvictionHard, signalKeys)...)
	errs = append(errs, checkKeys("spec.kubelet.evictionSoft", nc.Kubelet.EvictionSoft, signalKeys)...)
	for i, b := range nc.BlockDeviceMappings {
		if b.VolumeSize != nil && b.VolumeSize.Sign() <= 0 {
			errs = append(errs, fmt.Sprintf("spec.blockDeviceMappings[%d].ebs.volumeSize: %s; valid: a positive size such as 20Gi", i, b.VolumeSize.String()))
		}
	}
	switch nc.InstanceStorePolicy {
	case "", "RAID0":
	default:
		errs = append(errs, fmt.Sprintf("spec.instanceStorePolicy: %q; valid: RAID0 or unset", nc.InstanceStorePolicy))
	}
	return errs
}

// The keys the EC2NodeClass CRD admits (its CEL rules), in its order.
var (
	reservedKeys = []string{"cpu", "memory", "ephemeral-storage", "pid"}
	signalKeys   = []string{"memory.available", "nodefs.available", "nodefs.inodesFree", "imagefs.available", "imagefs.inodesFree", "pid.available"}
)

func checkKeys(path string, m map[string]string, valid []string) []string {
	var errs []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(valid, k) {
			errs = append(errs, fmt.Sprintf("%s: key %q is not valid; valid keys are %s", path, k, strings.Join(valid, ", ")))
		}
	}
	return errs
}

func checkQuantities(path string, m map[string]string) []string {
	var errs []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		q, err := resource.ParseQuantity(m[k])
		switch {
		case err != nil:
			errs = append(errs, fmt.Sprintf("%s[%q]: %q is not a quantity (e.g. 100m, 1Gi)", path, k, m[k]))
		case q.Sign() < 0:
			errs = append(errs, fmt.Sprintf("%s[%q]: %q is negative; reserved resources must be 0 or more", path, k, m[k]))
		}
	}
	return errs
}

func checkSignals(path string, m map[string]string) []string {
	var errs []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		if strings.HasSuffix(v, "%") {
			// Written so that NaN fails too (it parses, and compares false).
			if p, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64); err != nil || !(p >= 0 && p <= 100) {
				errs = append(errs, fmt.Sprintf("%s[%q]: %q is not a percentage between 0%% and 100%%", path, k, v))
			}
			continue
		}
		if _, err := resource.ParseQuantity(v); err != nil {
			errs = append(errs, fmt.Sprintf("%s[%q]: %q is neither a quantity (e.g. 100Mi) nor a percentage (e.g. 5%%)", path, k, v))
		}
	}
	return errs
}
