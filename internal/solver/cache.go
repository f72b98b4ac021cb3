package solver

import (
	"maps"
	"sort"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// Solver holds a catalog and the instance types derived from it, per region and node class.
// Deriving a region's instance types is the expensive step; a plan with fifty NodePools on
// one node class derives them once.
type Solver struct {
	Catalog *catalog.Catalog
	Cluster aks.Cluster

	mu    sync.Mutex
	cache map[cacheKey]*regionTypes
}

type cacheKey struct {
	region string
	nc     aks.NodeClass
}

// regionTypes is a region's instance types for one node class, with Karpenter's view of them.
type regionTypes struct {
	region string
	// zones are the region's zone labels ("westeurope-1"); nil when not known.
	zones  map[string]bool
	result *aks.Result
	types  cloudprovider.InstanceTypes
	byName map[string]*aks.InstanceType
	// values lists, per label key, every value some instance type offers (for "did you mean").
	values map[string]map[string]bool

	indexOnce sync.Once
	idx       *typeIndex
}

// AnyRegion analyses every size of the catalog regardless of region, with regional
// availability and zones unknown and prices from Karpenter's fallback region.
const AnyRegion = ""

// New returns a solver over a catalog (catalog.Default() for the embedded one).
func New(cat *catalog.Catalog) *Solver {
	return &Solver{Catalog: cat, cache: map[cacheKey]*regionTypes{}}
}

// Regions lists the catalog's regions.
func (s *Solver) Regions() []string { return s.Catalog.Regions() }

// HasRegion reports whether the catalog knows the region (case-insensitive).
func (s *Solver) HasRegion(region string) bool {
	_, ok := s.Catalog.Region(strings.ToLower(region))
	return ok
}

func (s *Solver) types(region string, nc aks.NodeClass) *regionTypes {
	key := cacheKey{strings.ToLower(region), nc}
	s.mu.Lock()
	defer s.mu.Unlock()
	if rt, ok := s.cache[key]; ok {
		return rt
	}
	var res *aks.Result
	if key.region == AnyRegion {
		// Every size of the catalog as if one region offered them all: labels and capacity do
		// not depend on the region, and deriving 57 regions one by one would take seconds.
		res = aks.ListSKUs(s.Catalog, key.region, s.Catalog.SKUs(), nc, s.Cluster)
	} else {
		res = aks.List(s.Catalog, key.region, nc, s.Cluster)
	}
	rt := &regionTypes{region: key.region, result: res, byName: map[string]*aks.InstanceType{}, values: map[string]map[string]bool{}}
	if r, ok := s.Catalog.Region(key.region); ok && r.ZonesKnown {
		rt.zones = map[string]bool{}
		for _, z := range r.Zones {
			rt.zones[zoneLabel(key.region, z)] = true
		}
		rt.values[corev1.LabelTopologyZone] = maps.Clone(rt.zones)
	}
	for _, it := range res.InstanceTypes {
		rt.types = append(rt.types, it.InstanceType)
		rt.byName[it.Name] = it
		for _, r := range it.Requirements.Values() {
			rt.addValues(r.Key, r.Values())
		}
		for _, o := range it.Offerings {
			for _, r := range o.Requirements.Values() {
				if r.Key != corev1.LabelTopologyZone || it.ZonesKnown {
					rt.addValues(r.Key, r.Values())
				}
			}
		}
	}
	s.cache[key] = rt
	return rt
}

func (rt *regionTypes) addValues(key string, vals []string) {
	m := rt.values[key]
	if m == nil {
		m = map[string]bool{}
		rt.values[key] = m
	}
	for _, v := range vals {
		m[v] = true
	}
}

// zoneLabel is the topology.kubernetes.io/zone value AKS gives a region's logical zone.
func zoneLabel(region, zone string) string {
	if strings.HasPrefix(zone, region+"-") {
		return zone
	}
	return region + "-" + zone
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
