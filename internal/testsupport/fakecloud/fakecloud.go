package fakecloud

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

var _ cloud.Cloud = Cloud{}

// Cloud is a second cloud, written only against the seam: its own node-class group,
// one region with two zones, three synthetic instance types under its own label domain.
// It shows that adding a cloud needs no edit in the solver or the simulation: it is handed to
// analysis.NewWithClouds.
type Cloud struct{}

const (
	// Name is the cloud's Name.
	Name = "Example"
	// Group and Kind are its node-class kind.
	Group = "compute.example.com"
	Kind  = "ExampleNodeClass"
	// FamilyLabel is its own well-known label.
	FamilyLabel = Group + "/family"
	// Region is its only region, with zones Region+"a" and Region+"b".
	Region = "example-1"
)

// TypeNames are its instance types, sorted: two "general" and one "memory" family.
var TypeNames = []string{"ex.general.large", "ex.general.small", "ex.memory.large"}

// NodeClass is its node class (the spec's spot field, which shapes nothing).
type NodeClass struct{ Spot bool }

func (NodeClass) Cloud() string { return Name }

func (Cloud) Name() string { return Name }
func (Cloud) NodeClassKinds() []schema.GroupKind {
	return []schema.GroupKind{{Group: Group, Kind: Kind}}
}
func (Cloud) DefaultNodeClass() cloud.NodeClass { return NodeClass{} }
func (Cloud) DecodeNodeClass(obj map[string]any) (cloud.NodeClass, error) {
	spec, _ := obj["spec"].(map[string]any)
	spot, _ := spec["spot"].(bool)
	return NodeClass{Spot: spot}, nil
}
func (Cloud) Regions() []string            { return []string{Region} }
func (Cloud) HasRegion(region string) bool { return strings.EqualFold(region, Region) }
func (Cloud) ExampleRegion() string        { return Region }
func (Cloud) Currency(string) string       { return "USD" }
func (Cloud) LabelDomains() []string       { return []string{Group} }
func (Cloud) WellKnownLabels() sets.Set[string] {
	return karpv1.WellKnownLabels.Union(sets.New(FamilyLabel))
}
func (Cloud) Zones(region string) ([]string, bool) {
	if !strings.EqualFold(region, Region) {
		return nil, false
	}
	return []string{"example-1a", "example-1b"}, true
}

func (Cloud) InstanceTypes(region string, nc cloud.NodeClass) []*cloud.InstanceType {
	if !strings.EqualFold(region, Region) {
		return nil
	}
	var out []*cloud.InstanceType
	for _, t := range []struct {
		name, family string
		cpu          int
		memGiB       int
		price        float64
	}{{"ex.general.large", "general", 8, 32, 0.40}, {"ex.general.small", "general", 2, 8, 0.10}, {"ex.memory.large", "memory", 8, 64, 0.60}} {
		reqs := scheduling.NewRequirements(
			scheduling.NewRequirement(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpIn, t.name),
			scheduling.NewRequirement(corev1.LabelArchStable, corev1.NodeSelectorOpIn, karpv1.ArchitectureAmd64),
			scheduling.NewRequirement(corev1.LabelOSStable, corev1.NodeSelectorOpIn, string(corev1.Linux)),
			scheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, "example-1a", "example-1b"),
			scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeOnDemand),
			scheduling.NewRequirement(FamilyLabel, corev1.NodeSelectorOpIn, t.family),
		)
		var offs cloudprovider.Offerings
		for _, z := range []string{"example-1a", "example-1b"} {
			offs = append(offs, &cloudprovider.Offering{Available: true, Price: t.price, Requirements: scheduling.NewRequirements(
				scheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, z),
				scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeOnDemand))})
		}
		out = append(out, &cloud.InstanceType{
			InstanceType: &cloudprovider.InstanceType{Name: t.name, Requirements: reqs, Offerings: offs,
				Capacity: corev1.ResourceList{
					corev1.ResourceCPU:    resource.MustParse(fmt.Sprint(t.cpu)),
					corev1.ResourceMemory: resource.MustParse(fmt.Sprintf("%dGi", t.memGiB)),
					corev1.ResourcePods:   resource.MustParse("110")},
				Overhead: &cloudprovider.InstanceTypeOverhead{}},
			ZonesKnown: true, MemoryGiB: float64(t.memGiB),
			OnDemand: cloud.Price{Value: t.price, Basis: cloud.PriceListed, Source: "example list"},
			Spot:     cloud.Price{Value: t.price, Basis: cloud.PriceMissing, Source: "missing"},
		})
	}
	slices.SortFunc(out, func(a, b *cloud.InstanceType) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Launch takes the cheapest offering of the first option: enough for a fake.
func (Cloud) Launch(options []*cloudprovider.InstanceType, reqs scheduling.Requirements, _ corev1.ResourceList, _ map[*cloudprovider.InstanceType]bool) (*cloudprovider.InstanceType, []*cloudprovider.Offering) {
	for _, it := range options {
		if of := it.Offerings.Available().Compatible(reqs); len(of) > 0 {
			return it, []*cloudprovider.Offering{of.Cheapest()}
		}
	}
	return nil, nil
}

// Rank orders by each type's cheapest offering, then name.
func (Cloud) Rank(cands []cloud.InstanceOfferings) []cloud.InstanceOfferings {
	out := slices.Clone(cands)
	slices.SortStableFunc(out, func(a, b cloud.InstanceOfferings) int {
		if pa, pb := a.Offerings.Cheapest().Price, b.Offerings.Cheapest().Price; pa != pb {
			return cmp.Compare(pa, pb)
		}
		return strings.Compare(a.InstanceType.Name, b.InstanceType.Name)
	})
	return out
}
