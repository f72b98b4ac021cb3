package instancetype

import (
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/catalog"
)

// MissingPrice is the Azure provider's penalty price (USD/hour) for sizes it has
// no price for, or does not know: high enough never to be picked automatically,
// yet the size stays launchable when a NodePool asks for it by name.
const MissingPrice = 999.0

// priceFallbackRegion is where upstream's static price table falls back to when
// a region has no prices of its own.
const priceFallbackRegion = "eastus"

// PriceBasis says where an offering's price came from.
type PriceBasis string

const (
	PriceListed PriceBasis = "listed" // the region's list price
	// PriceSpotFromOnDemand: no spot price is known, so the on-demand price
	// stands in, as upstream does until its live pricing call answers.
	PriceSpotFromOnDemand PriceBasis = "spot-from-on-demand"
	// PriceFromFallbackRegion: the region has no price list; upstream uses eastus's.
	PriceFromFallbackRegion PriceBasis = "fallback-region"
	PriceMissing            PriceBasis = "missing"     // no price at all: MissingPrice
	PriceUnknownSKU         PriceBasis = "unknown-sku" // size not in known_skus.yaml: MissingPrice
)

// Price is the hourly price Karpenter would rank an offering by.
type Price struct {
	Value float64
	Basis PriceBasis
}

// Estimated reports whether the price is not the region's own list price.
func (p Price) Estimated() bool { return p.Basis != PriceListed }

// skuPrices follows upstream: its price table starts as the static on-demand
// list of the region (or of eastus when the region has none), spot starts as
// the same table, and sizes absent from known_skus.yaml get the penalty price.
func skuPrices(cat *catalog.Catalog, region string, s *catalog.SKU) (onDemand, spot Price) {
	if !s.KnownToKarpenter {
		p := Price{Value: MissingPrice, Basis: PriceUnknownSKU}
		return p, p
	}
	listRegion, basis := region, PriceListed
	if !cat.HasPrices(region) {
		listRegion, basis = priceFallbackRegion, PriceFromFallbackRegion
	}
	p, ok := cat.RawPrices(listRegion, s.Name)
	onDemand, spot = Price{MissingPrice, PriceMissing}, Price{MissingPrice, PriceMissing}
	if !ok {
		return onDemand, spot
	}
	if p.HasOnDemand {
		onDemand = Price{p.OnDemand, basis}
		spot = Price{p.OnDemand, PriceSpotFromOnDemand}
	}
	if p.HasSpot {
		spot = Price{p.Spot, basis}
	}
	return onDemand, spot
}
