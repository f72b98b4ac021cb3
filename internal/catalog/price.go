package catalog

import "strings"

// CapacityType uses Karpenter's karpenter.sh/capacity-type values.
type CapacityType string

const (
	OnDemand CapacityType = "on-demand"
	Spot     CapacityType = "spot"
)

// Price returns the hourly USD list price of sku in region.
//
// No public static source carries spot prices, so unless a Retail Prices API
// snapshot or an override supplied one, the spot price is the on-demand price
// with estimated = true; Karpenter on Azure makes the same substitution until
// its live pricing call answers. ok is false when the catalog has no price.
func (c *Catalog) Price(region, sku string, ct CapacityType) (price float64, estimated bool, ok bool) {
	p, found := c.prices[strings.ToLower(region)].get(sku)
	if !found {
		return 0, false, false
	}
	switch ct {
	case OnDemand:
		if p.HasOnDemand {
			return p.OnDemand, false, true
		}
	case Spot:
		if p.HasSpot {
			return p.Spot, false, true
		}
		if p.HasOnDemand {
			return p.OnDemand, true, true
		}
	}
	return 0, false, false
}

// RawPrices returns the price entry of sku in region as stored, without the
// spot fallback Price applies.
func (c *Catalog) RawPrices(region, sku string) (Prices, bool) {
	return c.prices[strings.ToLower(region)].get(sku)
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
