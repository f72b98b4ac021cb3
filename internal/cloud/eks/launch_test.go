package eks

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// The launch follows the AWS provider's Create: spot when the NodeClaim allows it (its
// getCapacityType), the cheapest compatible offering of the truncated options, and no exotic
// (GPU) type when a general one fits (its ExoticInstanceTypeFilter); offerings are regional.
func TestLaunchFollowsAWSCreate(t *testing.T) {
	c := NewCloud(nil)
	var its []*cloudprovider.InstanceType
	for _, it := range c.InstanceTypes("us-east-1", c.DefaultNodeClass()) {
		its = append(its, it.InstanceType)
	}
	reqs := func(cts ...string) scheduling.Requirements {
		return scheduling.NewRequirements(
			scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, cts...),
			scheduling.NewRequirement(corev1.LabelArchStable, corev1.NodeSelectorOpIn, "amd64"),
			scheduling.NewRequirement(LabelInstanceFamily, corev1.NodeSelectorOpIn, "m5", "g5"),
		)
	}
	requests := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("3"), corev1.ResourceMemory: resource.MustParse("8Gi")}
	it, offs := c.Launch(its, reqs(karpv1.CapacityTypeOnDemand), requests, nil)
	if it == nil || it.Name != "m5.xlarge" || len(offs) != 1 || offs[0].CapacityType() != karpv1.CapacityTypeOnDemand || cloud.ZoneOf(offs[0]) != "" {
		t.Fatalf("on-demand launch %v %v, want m5.xlarge on-demand without a zone", it, offs)
	}
	it, offs = c.Launch(its, reqs(karpv1.CapacityTypeOnDemand, karpv1.CapacityTypeSpot), requests, nil)
	if it == nil || offs[0].CapacityType() != karpv1.CapacityTypeSpot || it.Name[:2] != "m5" {
		t.Fatalf("spot-allowed launch %v %v, want an m5 spot offering", it, offs)
	}
	if it, _ := c.Launch(its, reqs(karpv1.CapacityTypeOnDemand), corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1000")}, nil); it != nil {
		t.Errorf("1000 cpu launched %s", it.Name)
	}
}

// A NodeClaim with minValues launches: the AWS provider's truncation to 60 types checks them
// with the operator's minValues policy, read from the context (Karpenter's default, Strict),
// and panicked without one (an EKS pool with `instance-family Exists minValues 2` in simulate).
func TestLaunchWithMinValues(t *testing.T) {
	c := NewCloud(nil)
	var its []*cloudprovider.InstanceType
	for _, it := range c.InstanceTypes("us-east-1", c.DefaultNodeClass()) {
		its = append(its, it.InstanceType)
	}
	two, many := 2, 1000
	reqs := func(mv *int) scheduling.Requirements {
		return scheduling.NewRequirements(
			scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeOnDemand),
			scheduling.NewRequirementWithFlexibility(LabelInstanceFamily, corev1.NodeSelectorOpExists, mv),
		)
	}
	requests := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("1Gi")}
	if it, _ := c.Launch(its, reqs(&two), requests, nil); it == nil {
		t.Error("minValues 2 on instance families: nothing launched")
	}
	if it, _ := c.Launch(its, reqs(&many), requests, nil); it != nil {
		t.Errorf("minValues 1000 on instance families launched %s; the 60 types sent cannot have 1000 families (Strict)", it.Name)
	}
}

// A launch that may take spot or on-demand leaves the instance types as they were: the AWS
// provider's spot filter replaces each type's offerings with those it keeps (spot ones no
// dearer than the cheapest on-demand one), on the instance types of that one Create upstream,
// but the emulation's are shared by every NodeClaim and prediction. The launch dropped those
// spot offerings from the shared types (a NodeClaim launched later, in this or another
// prediction, saw fewer), found by the EKS comparator (eks1-017).
func TestLaunchLeavesInstanceTypesAlone(t *testing.T) {
	c := NewCloud(nil)
	var its []*cloudprovider.InstanceType
	before := map[*cloudprovider.InstanceType]int{}
	for _, it := range c.InstanceTypes("us-east-1", c.DefaultNodeClass()) {
		its = append(its, it.InstanceType)
		before[it.InstanceType] = len(it.InstanceType.Offerings)
	}
	reqs := scheduling.NewRequirements(
		scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot, karpv1.CapacityTypeOnDemand),
		scheduling.NewRequirement(corev1.LabelArchStable, corev1.NodeSelectorOpIn, "amd64"),
	)
	requests := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("1Gi")}
	it, offs := c.Launch(its, reqs, requests, nil)
	if it == nil || len(offs) == 0 || !slices.Contains(its, it) {
		t.Fatalf("launched %v %v; want one of the given instance types", it, offs)
	}
	changed := 0
	for _, it := range its {
		if len(it.Offerings) != before[it] {
			changed++
		}
	}
	if changed > 0 {
		t.Errorf("the launch changed the offerings of %d of the %d instance types it was given", changed, len(its))
	}
}
