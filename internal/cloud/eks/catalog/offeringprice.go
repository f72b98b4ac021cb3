package catalog

import "strings"

// FallbackRegion is the region whose static on-demand table Karpenter's AWS
// provider uses where it has none for its own region (pricing.go Reset).
const FallbackRegion = "us-east-1"

// OfferingPrice is the price an offering gets offline, with its provenance:
//
//   - on-demand: the region's static table, else us-east-1's, which is what
//     the AWS provider itself starts from (and keeps in an isolated VPC) where
//     it has no table for the region; the fallback is marked an estimate and
//     keeps its currency (USD, even in a CNY region, as upstream does).
//   - spot: the 2024 snapshot (an estimate), else the on-demand price above,
//     which is the provider's own spot price until its first spot price update.
//
// False means no source has a price: upstream makes such an offering
// unavailable.
func (c *Catalog) OfferingPrice(region, instanceType string, ct CapacityType) (Price, bool) {
	if ct == Spot {
		if p, ok := c.Price(region, instanceType, Spot); ok {
			return p, true
		}
		p, ok := c.OfferingPrice(region, instanceType, OnDemand)
		if !ok {
			return Price{}, false
		}
		p.CapacityType = Spot
		p.Estimate = true
		p.Source = "no spot price for the region: the on-demand price, Karpenter's own spot price until it fetches spot prices; " + p.Source
		return p, true
	}
	if p, ok := c.Price(region, instanceType, OnDemand); ok {
		return p, true
	}
	if region == FallbackRegion || c.tables[tableKey{region, OnDemand}] != nil {
		return Price{}, false
	}
	p, ok := c.Price(FallbackRegion, instanceType, OnDemand)
	if !ok {
		return Price{}, false
	}
	p.Estimate = true
	p.Source = "no on-demand table for " + region + ": the " + FallbackRegion + " list price, as Karpenter falls back to it; " + p.Source
	if strings.HasPrefix(region, "cn-") {
		p.Source += " (USD, in a CNY region)"
	}
	return p, true
}

// Currency is the currency OfferingPrice gives the region's prices in: its on-demand table's,
// else FallbackRegion's (which it falls back to), spot included.
func (c *Catalog) Currency(region string) string {
	if t := c.tables[tableKey{region, OnDemand}]; t != nil {
		return t.Currency
	}
	if t := c.tables[tableKey{FallbackRegion, OnDemand}]; t != nil {
		return t.Currency
	}
	return "USD"
}
