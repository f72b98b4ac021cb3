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
	p, found := c.prices[strings.ToLower(region)][sku]
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

// PriceList returns the raw price entries of a region (SKU name → prices).
// The map is shared and must not be modified.
func (c *Catalog) PriceList(region string) map[string]Prices {
	return c.prices[strings.ToLower(region)]
}
