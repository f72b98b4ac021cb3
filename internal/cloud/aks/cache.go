package aks

import (
	"strings"
	"sync"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// Cache memoises List: deriving a region's instance types takes tens of
// milliseconds (Karpenter's requirement sets are allocation-heavy), while
// analyses ask for the same region and node class many times. Upstream caches
// the same way, keyed by the node-class parameters. Results are shared and must
// be treated as read-only.
type Cache struct {
	mu      sync.Mutex
	entries map[cacheKey]*cacheEntry
}

type cacheKey struct {
	cat    *catalog.Catalog
	region string
	nc     NodeClass
	cl     Cluster
}

// cacheEntry lets concurrent callers of one key wait for a single derivation
// instead of each computing it.
type cacheEntry struct {
	once sync.Once
	res  *Result
}

// List returns List(cat, region, nc, cl), computing it once per distinct input.
func (c *Cache) List(cat *catalog.Catalog, region string, nc NodeClass, cl Cluster) *Result {
	key := cacheKey{cat, strings.ToLower(region), nc.withDefaults(), cl.withDefaults()}
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[cacheKey]*cacheEntry{}
	}
	e := c.entries[key]
	if e == nil {
		e = &cacheEntry{}
		c.entries[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.res = List(cat, key.region, key.nc, key.cl) })
	return e.res
}
