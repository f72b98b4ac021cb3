package catalog

import (
	"fmt"
	"math"
	"sort"
)

// Spot list prices exist for a few regions only (the embedded snapshot has five
// EU regions). Elsewhere a spot price is estimated from the region's on-demand
// price and the spot/on-demand ratio seen where both are listed. Spot discounts
// are set per size and move little between regions (in the 2026-08 snapshot
// the ratio of one size differs by less than 0.001 between regions for most
// sizes, and its overall median is 0.185), so the same size's ratio is the best
// guess, then the quota family's, then all sizes'. Each estimate says which one
// it used, over how many observations, and their spread.

// ratioStats summarises observed spot/on-demand ratios.
type ratioStats struct {
	median float64
	how    string // the Source text of an estimate from these stats
}

type spotRatioIndex struct {
	bySKU    map[string]ratioStats
	byFamily map[string]ratioStats
	all      *ratioStats
}

func (c *Catalog) spotRatios() *spotRatioIndex {
	c.ratiosOnce.Do(func() { c.ratios = buildSpotRatios(c) })
	return c.ratios
}

func buildSpotRatios(c *Catalog) *spotRatioIndex {
	bySKU := map[string][]float64{}
	skuRegions := map[string]int{}
	byFamily := map[string][]float64{}
	var all []float64
	for _, region := range sortedKeys(c.prices) {
		rp := c.prices[region]
		for i, name := range rp.names {
			p := rp.vals[i]
			if !p.HasSpot || !p.HasOnDemand || !(p.OnDemand > 0) {
				continue
			}
			r := p.Spot / p.OnDemand
			bySKU[name] = append(bySKU[name], r)
			skuRegions[name]++
			if s, ok := c.byName[name]; ok && s.Family != "" {
				byFamily[s.Family] = append(byFamily[s.Family], r)
			}
			all = append(all, r)
		}
	}
	idx := &spotRatioIndex{bySKU: make(map[string]ratioStats, len(bySKU)), byFamily: make(map[string]ratioStats, len(byFamily))}
	for name, rs := range bySKU {
		idx.bySKU[name] = stats(rs, fmt.Sprintf("of %s in %d region(s) with spot list prices", name, skuRegions[name]))
	}
	for fam, rs := range byFamily {
		idx.byFamily[fam] = stats(rs, fmt.Sprintf("of quota family %s (%d size-region pairs with spot list prices; this size has none)", fam, len(rs)))
	}
	if len(all) > 0 {
		s := stats(all, fmt.Sprintf("of all %d size-region pairs with spot list prices (none for this size or its family)", len(all)))
		idx.all = &s
	}
	return idx
}

func stats(rs []float64, what string) ratioStats {
	sort.Float64s(rs)
	n := len(rs)
	med := rs[n/2]
	if n%2 == 0 {
		med = (rs[n/2-1] + rs[n/2]) / 2
	}
	how := fmt.Sprintf("estimated: on-demand × %.3f, the median spot/on-demand ratio %s", med, what)
	if n > 1 {
		how += fmt.Sprintf(", range %.3f–%.3f", rs[0], rs[n-1])
	}
	return ratioStats{median: med, how: how}
}

// SpotFromOnDemandSource is the Source of a spot price that is the on-demand
// price standing in: the catalog has no spot list price to estimate from.
const SpotFromOnDemandSource = "estimated: the on-demand price (no spot list prices to estimate from; Karpenter on Azure uses on-demand until its live pricing answers)"

func (idx *spotRatioIndex) estimate(c *Catalog, sku string, onDemand float64) Quote {
	st, ok := idx.bySKU[sku]
	if !ok {
		if s, known := c.byName[sku]; known && s.Family != "" {
			st, ok = idx.byFamily[s.Family]
		}
	}
	if !ok && idx.all != nil {
		st, ok = *idx.all, true
	}
	if !ok {
		return Quote{Price: onDemand, Source: SpotFromOnDemandSource, Estimated: true}
	}
	// Rounded to a millionth of a dollar, the precision of list prices.
	return Quote{Price: math.Round(onDemand*st.median*1e6) / 1e6, Source: st.how, Estimated: true}
}
