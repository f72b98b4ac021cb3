package analysis

import (
	"maps"
	"sort"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// Analyzer holds the clouds it serves and the instance types derived from them, per cloud,
// region and node class. Deriving a region's instance types is the expensive step; a plan
// with fifty NodePools on one node class derives them once, and two regions (or node classes)
// derive concurrently: each cache entry has its own once, the solver-wide lock only guards
// finding the entry.
type Analyzer struct {
	clouds *cloud.Registry

	mu    sync.Mutex
	cache map[cacheKey]*cacheEntry
}

type cacheKey struct {
	cloud  string
	region string
	nc     cloud.NodeClass
}

// cacheEntry lets concurrent callers of one key wait for a single derivation instead of
// each computing it, without holding up callers of other keys.
type cacheEntry struct {
	once sync.Once
	rt   *regionTypes
}

// regionTypes is a region's instance types for one node class, with Karpenter's view of them.
type regionTypes struct {
	cloud  cloud.Cloud
	region string
	// zones are the region's zone labels ("westeurope-1"); nil when not known.
	zones  map[string]bool
	result listing
	types  cloudprovider.InstanceTypes
	byName map[string]*cloud.InstanceType
	// values lists, per label key, every value some instance type offers (for "did you mean").
	values map[string]map[string]bool

	indexOnce sync.Once
	idx       *typeIndex

	labelsOnce sync.Once
	labels     map[*cloudprovider.Offering]OfferingLabels
}

// listing is what the cloud listed, sorted by name.
type listing struct {
	InstanceTypes []*cloud.InstanceType
}

// AnyRegion analyses every instance type of the catalog regardless of region, with regional
// availability and zones unknown and prices from the cloud's fallback region.
const AnyRegion = cloud.AnyRegion

// NewWithClouds returns a solver serving the clouds (the first serves NodePools that name no
// node-class group).
func NewWithClouds(clouds ...cloud.Cloud) *Analyzer {
	return &Analyzer{clouds: cloud.NewRegistry(clouds...), cache: map[cacheKey]*cacheEntry{}}
}

// Clouds is the registry of the clouds the solver serves.
func (s *Analyzer) Clouds() *cloud.Registry { return s.clouds }

// cloudOf is the cloud serving the pool, by its nodeClassRef.group.
func (s *Analyzer) cloudOf(p *Pool) cloud.Cloud {
	var group string
	if ref := p.Spec.Template.Spec.NodeClassRef; ref != nil {
		group = ref.Group
	}
	return s.clouds.Serving(group)
}

// nodeClassFor is the node class to analyse a pool of cloud c against: the given one when it
// is c's, else c's default (a caller that knows no node class passes none).
func nodeClassFor(c cloud.Cloud, nc cloud.NodeClass) cloud.NodeClass {
	if nc == nil || nc.Cloud() != c.Name() {
		return c.DefaultNodeClass()
	}
	return nc
}

// Regions lists the regions of the default cloud's catalog.
func (s *Analyzer) Regions() []string { return s.clouds.Default().Regions() }

// HasRegion reports whether some cloud's catalog knows the region (case-insensitive).
func (s *Analyzer) HasRegion(region string) bool {
	for _, c := range s.clouds.All() {
		if c.HasRegion(region) {
			return true
		}
	}
	return false
}

// types returns the instance types of region for the node class, from the node class's cloud
// (the default cloud's default node class when nc is nil).
func (s *Analyzer) types(region string, nc cloud.NodeClass) *regionTypes {
	c := s.clouds.Default()
	if nc != nil {
		if named, ok := s.clouds.Named(nc.Cloud()); ok {
			c = named
		}
	}
	nc = nodeClassFor(c, nc)
	key := cacheKey{c.Name(), strings.ToLower(region), nc}
	s.mu.Lock()
	e := s.cache[key]
	if e == nil {
		e = &cacheEntry{}
		s.cache[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.rt = derive(c, key.region, nc) })
	return e.rt
}

func derive(c cloud.Cloud, region string, nc cloud.NodeClass) *regionTypes {
	its := c.InstanceTypes(region, nc)
	rt := &regionTypes{cloud: c, region: region, result: listing{its}, byName: map[string]*cloud.InstanceType{}, values: map[string]map[string]bool{}}
	if zones, known := c.Zones(region); known {
		rt.zones = map[string]bool{}
		for _, z := range zones {
			rt.zones[z] = true
		}
		rt.values[corev1.LabelTopologyZone] = maps.Clone(rt.zones)
	}
	for _, it := range its {
		rt.types = append(rt.types, it.InstanceType)
		rt.byName[it.Name] = it
	}
	rt.addIndexedValues(rt.index())
	return rt
}

// addIndexedValues adds every value the types and their offerings offer, read from the
// index's distinct requirements instead of from each type. An offering's zone counts only on a
// type whose zones are known.
func (rt *regionTypes) addIndexedValues(idx *typeIndex) {
	for key, groups := range idx.groups {
		for _, g := range groups {
			rt.addValues(key, g.req.Values())
		}
	}
	for c, reqs := range idx.classes {
		for key, r := range reqs {
			if key != corev1.LabelTopologyZone || idx.classSeen[c]&seenZonesKnown != 0 {
				rt.addValues(key, r.Values())
			}
		}
	}
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

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
