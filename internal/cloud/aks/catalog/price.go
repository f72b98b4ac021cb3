package catalog

import (
	"sort"
	"strings"
)

// CapacityType uses Karpenter's karpenter.sh/capacity-type values.
type CapacityType string

const (
	OnDemand CapacityType = "on-demand"
	Spot     CapacityType = "spot"
)

// Quote is a price with its provenance.
type Quote struct {
	Price float64
	// Source is "list YYYY-MM-DD" (a list price from a snapshot of that day),
	// "override…" (from an override file) or "estimated: …" saying how the
	// number was estimated.
	Source string
	// Estimated is true when the price is not a list or override price.
	Estimated bool
}

// Quote returns the hourly USD price of sku in region for a capacity type.
//
// A missing spot price is estimated from the on-demand price: by the spot to
// on-demand ratio observed for the same size in the regions that have spot list
// prices, else for its quota family, else for all sizes; with no spot list
// prices at all, the on-demand price itself stands in, as Karpenter on Azure
// does until its live pricing call answers. ok is false when the catalog has no
// price to give.
func (c *Catalog) Quote(region, sku string, ct CapacityType) (q Quote, ok bool) {
	p, found := c.prices[strings.ToLower(region)].get(sku)
	if !found {
		return Quote{}, false
	}
	switch ct {
	case OnDemand:
		if p.HasOnDemand {
			return Quote{Price: p.OnDemand, Source: sourceOrList(p.OnDemandSource)}, true
		}
	case Spot:
		if p.HasSpot {
			return Quote{Price: p.Spot, Source: sourceOrList(p.SpotSource)}, true
		}
		if p.HasOnDemand {
			return c.spotRatios().estimate(c, sku, p.OnDemand), true
		}
	}
	return Quote{}, false
}

// Price returns the hourly USD price of sku in region, and whether it is an
// estimate (see Quote). ok is false when the catalog has no price.
func (c *Catalog) Price(region, sku string, ct CapacityType) (price float64, estimated bool, ok bool) {
	q, ok := c.Quote(region, sku, ct)
	return q.Price, q.Estimated, ok
}

func sourceOrList(s string) string {
	if s == "" {
		return ListSource("")
	}
	return s
}

// RawPrices returns the price entry of sku in region as stored, without the
// spot estimate Quote applies.
func (c *Catalog) RawPrices(region, sku string) (Prices, bool) {
	return c.prices[strings.ToLower(region)].get(sku)
}

// HasOnDemandPrices reports whether region has any on-demand price: a region
// with spot prices only (belgiumcentral in the embedded snapshot) is absent
// from Karpenter's static on-demand table.
func (c *Catalog) HasOnDemandPrices(region string) bool {
	rp := c.prices[strings.ToLower(region)]
	if rp == nil {
		return false
	}
	for _, p := range rp.vals {
		if p.HasOnDemand {
			return true
		}
	}
	return false
}

// PriceList returns a copy of a region's price entries (SKU name → prices);
// nil when the catalog has no prices for the region.
func (c *Catalog) PriceList(region string) map[string]Prices {
	rp := c.prices[strings.ToLower(region)]
	if rp == nil {
		return nil
	}
	return rp.toMap()
}

// PriceSourceCount says how many prices of one capacity type, in how many
// regions, come from one source.
type PriceSourceCount struct {
	CapacityType CapacityType
	Source       string
	Regions      int
	Prices       int
}

// PriceSources summarises the provenance of the catalog's stored prices (not
// of estimates, which are made on demand), sorted by capacity type and source.
func (c *Catalog) PriceSources() []PriceSourceCount {
	type key struct {
		ct  CapacityType
		src string
	}
	prices := map[key]int{}
	regions := map[key]map[string]bool{}
	count := func(k key, region string) {
		prices[k]++
		if regions[k] == nil {
			regions[k] = map[string]bool{}
		}
		regions[k][region] = true
	}
	for region, rp := range c.prices {
		for _, p := range rp.vals {
			if p.HasOnDemand {
				count(key{OnDemand, p.OnDemandSource}, region)
			}
			if p.HasSpot {
				count(key{Spot, p.SpotSource}, region)
			}
		}
	}
	out := make([]PriceSourceCount, 0, len(prices))
	for k, n := range prices {
		out = append(out, PriceSourceCount{CapacityType: k.ct, Source: k.src, Regions: len(regions[k]), Prices: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].CapacityType != out[j].CapacityType {
			return out[i].CapacityType < out[j].CapacityType
		}
		return out[i].Source < out[j].Source
	})
	return out
}
