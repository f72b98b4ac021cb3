package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// exampleCloud is a second cloud, written only against the seam: its own node-class group,
// one region with two zones, three synthetic instance types under its own label domain.
// It shows that adding a cloud needs no edit in the solver: it is handed to NewWithClouds.
type exampleCloud struct{}

const (
	exampleGroup  = "compute.example.com"
	exampleFamily = exampleGroup + "/family"
	exampleRegion = "example-1"
)

type exampleNodeClass struct{ Spot bool }

func (exampleNodeClass) Cloud() string { return "Example" }

func (exampleCloud) Name() string { return "Example" }
func (exampleCloud) NodeClassKinds() []schema.GroupKind {
	return []schema.GroupKind{{Group: exampleGroup, Kind: "ExampleNodeClass"}}
}
func (exampleCloud) DefaultNodeClass() cloud.NodeClass { return exampleNodeClass{} }
func (exampleCloud) DecodeNodeClass(obj map[string]any) (cloud.NodeClass, error) {
	spec, _ := obj["spec"].(map[string]any)
	spot, _ := spec["spot"].(bool)
	return exampleNodeClass{Spot: spot}, nil
}
func (exampleCloud) Regions() []string            { return []string{exampleRegion} }
func (exampleCloud) HasRegion(region string) bool { return strings.EqualFold(region, exampleRegion) }
func (exampleCloud) ExampleRegion() string        { return exampleRegion }
func (exampleCloud) LabelDomains() []string       { return []string{exampleGroup} }
func (exampleCloud) WellKnownLabels() sets.Set[string] {
	return karpv1.WellKnownLabels.Union(sets.New(exampleFamily))
}
func (exampleCloud) Zones(region string) ([]string, bool) {
	if !strings.EqualFold(region, exampleRegion) {
		return nil, false
	}
	return []string{"example-1a", "example-1b"}, true
}

func (exampleCloud) InstanceTypes(region string, nc cloud.NodeClass) []*cloud.InstanceType {
	if !strings.EqualFold(region, exampleRegion) {
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
			scheduling.NewRequirement(exampleFamily, corev1.NodeSelectorOpIn, t.family),
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
func (exampleCloud) Launch(options []*cloudprovider.InstanceType, reqs scheduling.Requirements, _ corev1.ResourceList, _ map[*cloudprovider.InstanceType]bool) (*cloudprovider.InstanceType, []*cloudprovider.Offering) {
	for _, it := range options {
		if of := it.Offerings.Available().Compatible(reqs); len(of) > 0 {
			return it, []*cloudprovider.Offering{of.Cheapest()}
		}
	}
	return nil, nil
}

// Rank orders by each type's cheapest offering, then name.
func (exampleCloud) Rank(cands []cloud.InstanceOfferings) []cloud.InstanceOfferings {
	out := slices.Clone(cands)
	slices.SortStableFunc(out, func(a, b cloud.InstanceOfferings) int {
		if pa, pb := a.Offerings.Cheapest().Price, b.Offerings.Cheapest().Price; pa != pb {
			return cmp.Compare(pa, pb)
		}
		return strings.Compare(a.InstanceType.Name, b.InstanceType.Name)
	})
	return out
}

func examplePool(reqs ...karpv1.NodeSelectorRequirementWithMinValues) *Pool {
	p := pool(someLimits, reqs...)
	p.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: exampleGroup, Kind: "ExampleNodeClass", Name: "default"}
	return NewPool(p.NodePool)
}

var twoClouds = sync.OnceValue(func() *Solver { return NewWithClouds(aks.NewCloud(catalog.Default()), exampleCloud{}) })

// A NodePool whose nodeClassRef names the example group is analysed against the example
// cloud's instance types, labels and regions, with no Azure size or finding in sight; an AKS
// pool on the same solver is still analysed against Azure's catalog.
func TestSecondCloudServesItsNodePools(t *testing.T) {
	s := twoClouds()
	a := s.Analyze(examplePool(req(exampleFamily, corev1.NodeSelectorOpIn, "general")), Options{Region: exampleRegion, NodeClass: aks.NodeClass{}})
	if got := skuNames(a.Admissible); !slices.Equal(got, []string{"ex.general.large", "ex.general.small"}) {
		t.Errorf("admissible %v, want the two general example types", got)
	}
	if a.Summary.CheapestSKU != "ex.general.small" || a.Summary.CheapestHourlyPrice != 0.10 || a.Summary.PriceSource != "example list" {
		t.Errorf("summary %+v", a.Summary)
	}
	// Two sizes are fewer than FewThreshold (5): the one finding expected is KRP102.
	if got := codes(a); !slices.Equal(got, []findings.Code{findings.FewInstanceTypes}) {
		t.Errorf("findings %v (%v), want only KRP102", got, a.Findings)
	}

	// Label checks use the example cloud's domain and values.
	a = s.Analyze(examplePool(req(exampleGroup+"/famly", corev1.NodeSelectorOpIn, "general")), Options{Region: exampleRegion})
	if f := findingOf(a, findings.UnknownLabelKey); f == nil || !strings.Contains(f.Message, `did you mean "`+exampleFamily+`"`) {
		t.Errorf("typo in the example domain: %v", a.Findings)
	}
	a = s.Analyze(examplePool(req(exampleFamily, corev1.NodeSelectorOpIn, "generl")), Options{Region: exampleRegion})
	if f := findingOf(a, findings.UnknownLabelValue); f == nil || !strings.Contains(f.Message, `did you mean "general"`) {
		t.Errorf("typo in an example value: %v", a.Findings)
	}
	// Regions are the pool's cloud's: an Azure region is unknown to the example cloud.
	a = s.Analyze(examplePool(), Options{Region: "westeurope"})
	if f := findingOf(a, findings.UnknownRegion); f == nil || !strings.Contains(f.Fix, "an Example region name such as \"example-1\"") {
		t.Errorf("Azure region for an example pool: %v", a.Findings)
	}

	az := s.Analyze(pool(someLimits, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D")), Options{Region: "westeurope"})
	if len(az.Admissible) < 20 || !strings.HasPrefix(az.Admissible[0].InstanceType.Name, "Standard_") {
		t.Errorf("the AKS pool lost Azure's catalog: %d admissible", len(az.Admissible))
	}
	if a := s.Analyze(pool(someLimits), Options{Region: exampleRegion}); findingOf(a, findings.UnknownRegion) == nil {
		t.Error("an example region must be unknown to an AKS pool")
	}
}

func findingOf(a *Analysis, code findings.Code) *findings.Finding {
	for i := range a.Findings {
		if a.Findings[i].Code == code {
			return &a.Findings[i]
		}
	}
	return nil
}
