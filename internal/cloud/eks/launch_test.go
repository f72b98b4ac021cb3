package eks

import (
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
