package analysis

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks"
)

// referenceValues is every value the types and their offerings offer, read type by type (an
// offering's zone only on a type whose zones are known): what the index's distinct
// requirements must give.
func referenceValues(c cloud.Cloud, rt *regionTypes) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	add := func(key string, vals []string) {
		if out[key] == nil {
			out[key] = map[string]bool{}
		}
		for _, v := range vals {
			out[key][v] = true
		}
	}
	if zones, known := c.Zones(rt.region); known {
		out[corev1.LabelTopologyZone] = map[string]bool{}
		add(corev1.LabelTopologyZone, zones)
	}
	for _, it := range rt.result.InstanceTypes {
		for _, r := range it.Requirements.Values() {
			add(r.Key, r.Values())
		}
		for _, of := range it.Offerings {
			for _, r := range of.Requirements.Values() {
				if r.Key != corev1.LabelTopologyZone || it.ZonesKnown {
					add(r.Key, r.Values())
				}
			}
		}
	}
	return out
}

// The values a region offers per label key (for KRP107 and "did you mean") are the same read
// from the index as read from every type and offering, on AKS regions with and without zone
// data, the whole catalog and an EKS region.
func TestIndexedValuesMatchReference(t *testing.T) {
	clouds := testSolver.Clouds()
	for _, tc := range []struct {
		cloud, region string
	}{{aks.Name, "westeurope"}, {aks.Name, "eastus"}, {aks.Name, "brazilsouth"}, {aks.Name, AnyRegion}, {eks.Name, "us-east-1"}} {
		c, ok := clouds.Named(tc.cloud)
		if !ok {
			t.Fatalf("no cloud %q", tc.cloud)
		}
		rt := testSolver.types(tc.region, c.DefaultNodeClass())
		if len(rt.result.InstanceTypes) == 0 {
			t.Fatalf("%s %s: no instance types", tc.cloud, tc.region)
		}
		want := referenceValues(c, rt)
		if !maps.EqualFunc(rt.values, want, func(a, b map[string]bool) bool { return maps.Equal(a, b) }) {
			for k := range want {
				if !maps.Equal(rt.values[k], want[k]) {
					t.Errorf("%s %s: key %s: indexed %d values, reference %d", tc.cloud, tc.region, k, len(rt.values[k]), len(want[k]))
				}
			}
			t.Fatalf("%s %s: indexed values differ from the reference (%d keys against %d)", tc.cloud, tc.region, len(rt.values), len(want))
		}
	}
}

// The canonical form tells apart every difference Intersects and Compatible see (operator,
// bounds, minimum values, values) and nothing else (the order values were given in).
func TestCanonicalRequirement(t *testing.T) {
	two := 2
	key := func(r *scheduling.Requirement) string { return string(appendCanonical(nil, r)) }
	distinct := []*scheduling.Requirement{
		scheduling.NewRequirement("k", corev1.NodeSelectorOpIn, "a"),
		scheduling.NewRequirement("k", corev1.NodeSelectorOpIn, "a", "b"),
		scheduling.NewRequirementWithFlexibility("k", corev1.NodeSelectorOpIn, &two, "a", "b"),
		scheduling.NewRequirement("k", corev1.NodeSelectorOpNotIn, "a"),
		scheduling.NewRequirement("k", corev1.NodeSelectorOpExists),
		scheduling.NewRequirement("k", corev1.NodeSelectorOpDoesNotExist),
		scheduling.NewRequirement("k", corev1.NodeSelectorOpGt, "7"),
		scheduling.NewRequirement("k", corev1.NodeSelectorOpGt, "8"),
		scheduling.NewRequirement("k", corev1.NodeSelectorOpLt, "8"),
		scheduling.NewRequirement("k", corev1.NodeSelectorOpGt, "7").Intersection(scheduling.NewRequirement("k", corev1.NodeSelectorOpLt, "33")),
		scheduling.NewRequirement("k", corev1.NodeSelectorOpNotIn, "a", "b", "c", "d", "e", "f"),
		scheduling.NewRequirement("k", corev1.NodeSelectorOpNotIn, "a", "b", "c", "d", "e", "g"),
	}
	seen := map[string]int{}
	for i, r := range distinct {
		if j, dup := seen[key(r)]; dup {
			t.Errorf("%s and %s share a canonical form", distinct[j], r)
		}
		seen[key(r)] = i
	}
	if a, b := key(scheduling.NewRequirement("k", corev1.NodeSelectorOpIn, "b", "a", "c")), key(scheduling.NewRequirement("k", corev1.NodeSelectorOpIn, "c", "a", "b")); a != b {
		t.Errorf("value order changes the canonical form: %q, %q", a, b)
	}
	set := func(rs ...*scheduling.Requirement) string { return RequirementsKey(scheduling.NewRequirements(rs...)) }
	zone := scheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, "westeurope-1")
	spot := scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, "spot")
	onDemand := scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, "on-demand")
	if set(zone, spot) != set(spot, zone) || set(zone, spot) == set(zone, onDemand) || set(zone) == set(zone, spot) {
		t.Error("RequirementsKey: the same set must give one key and different sets different keys")
	}
}

// Two node classes, and two regions, analysed in one process each get their own types, index
// and findings: what a fresh solver gives for that key alone, whatever was analysed before.
func TestCacheKeyedByRegionAndNodeClass(t *testing.T) {
	p := benchPool()
	dns := aks.NodeClass{LocalDNS: true} // excludes sizes below 4 vCPUs
	keys := []Options{
		{Region: "westeurope"},
		{Region: "westeurope", NodeClass: dns},
		{Region: "eastus"},
		{Region: "eastus", NodeClass: dns},
	}
	shared := New(catalog.Default())
	got := make([]*Analysis, len(keys))
	for i, o := range keys {
		got[i] = shared.Analyze(p, o)
	}
	for i, o := range keys {
		alone := New(catalog.Default()).Analyze(p, o)
		if !reflect.DeepEqual(got[i].skuNames(), alone.skuNames()) || !reflect.DeepEqual(got[i].Summary, alone.Summary) || !reflect.DeepEqual(got[i].Findings, alone.Findings) {
			t.Errorf("%s %+v: the shared solver's analysis differs from a fresh solver's", o.Region, o.NodeClass)
		}
	}
	if reflect.DeepEqual(got[0].skuNames(), got[1].skuNames()) {
		t.Error("LocalDNS admits the same sizes as the default node class: the test does not tell the node classes apart")
	}
	if reflect.DeepEqual(got[0].skuNames(), got[2].skuNames()) && got[0].Summary.CheapestHourlyPrice == got[2].Summary.CheapestHourlyPrice {
		t.Error("westeurope and eastus give the same sizes and price: the test does not tell the regions apart")
	}
}

// What the checks read from the index classes equals what the offerings say: each admitted
// offering's capacity type and price record, the sorted size names and the largest size; on a spot and
// on-demand pool in a zoned region, the whole catalog and an EKS region.
func TestCandidateClassesMatchOfferings(t *testing.T) {
	both := req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, "spot", "on-demand")
	for _, tc := range []struct {
		p      *Pool
		region string
	}{{pool(someLimits, both), "westeurope"}, {pool(someLimits, both), AnyRegion}, {eksPool(someLimits, both), "us-east-1"}} {
		a := testSolver.Analyze(tc.p, Options{Region: tc.region})
		if len(a.Admissible) == 0 {
			t.Fatalf("%s: nothing admissible", tc.region)
		}
		var names []string
		for _, c := range a.Admissible {
			if c.class == nil || len(c.class) != len(c.Offerings) {
				t.Fatalf("%s %s: %d classes for %d offerings", tc.region, c.InstanceType.Name, len(c.class), len(c.Offerings))
			}
			for k, of := range c.Offerings {
				if got, want := c.capacityAt(k), of.CapacityType(); got != want {
					t.Errorf("%s %s offering %d: capacity %q from the index, %q from the offering", tc.region, c.InstanceType.Name, k, got, want)
				}
				if c.priceAt(k) != c.InstanceType.PriceOf(of) {
					t.Errorf("%s %s offering %d: the index's price record differs from PriceOf", tc.region, c.InstanceType.Name, k)
				}
			}
			names = append(names, c.InstanceType.Name)
		}
		largest := a.Admissible[0]
		for _, c := range a.Admissible {
			if largerCapacity(c.InstanceType.Capacity, largest.InstanceType.Capacity) {
				largest = c
			}
		}
		if a.Summary.LargestSKU != largest.InstanceType.Name {
			t.Errorf("%s: largest size %s by the index's rank, %s by capacity", tc.region, a.Summary.LargestSKU, largest.InstanceType.Name)
		}
		slices.Sort(names)
		if want := slices.Compact(names); !reflect.DeepEqual(a.skuNames(), want) {
			t.Errorf("%s: skuNames %d names, sorted reference %d", tc.region, len(a.skuNames()), len(want))
		}
	}
}

// An offering's zone counts as a value the region offers only on a type whose zones are known:
// two types share one offering class, one with known zones and one without, and a third
// class occurs only on the type without.
func TestIndexedZoneValuesOnlyFromKnownZones(t *testing.T) {
	offering := func(zone string) *cloudprovider.Offering {
		return &cloudprovider.Offering{Available: true, Price: 1, Requirements: scheduling.NewRequirements(
			scheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, zone),
			scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeOnDemand))}
	}
	typ := func(name string, known bool, zones ...string) *cloud.InstanceType {
		var offs cloudprovider.Offerings
		for _, z := range zones {
			offs = append(offs, offering(z))
		}
		return &cloud.InstanceType{ZonesKnown: known, InstanceType: &cloudprovider.InstanceType{Name: name, Offerings: offs,
			Requirements: scheduling.NewRequirements(scheduling.NewRequirement(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpIn, name))}}
	}
	its := []*cloud.InstanceType{typ("a", true, "r-1"), typ("b", false, "r-1", "r-2")}
	rt := &regionTypes{region: "r", result: listing{its}, values: map[string]map[string]bool{}}
	rt.addIndexedValues(rt.index())
	if got := rt.values[corev1.LabelTopologyZone]; !maps.Equal(got, map[string]bool{"r-1": true}) {
		t.Errorf("zone values %v, want only r-1 (r-2 is offered only by a type whose zones are not known)", got)
	}
	if got := rt.values[corev1.LabelInstanceTypeStable]; !maps.Equal(got, map[string]bool{"a": true, "b": true}) {
		t.Errorf("instance-type values %v", got)
	}
}
