package aks

import (
	"fmt"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
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
	PriceListed PriceBasis = "listed" // the region's list (or override) price
	// PriceSpotEstimated: no spot price is listed for the size in the region, so
	// it is estimated from the on-demand price (catalog.Quote says how).
	PriceSpotEstimated PriceBasis = "spot-estimated"
	// PriceFromFallbackRegion: the region has no on-demand price list; upstream uses eastus's.
	PriceFromFallbackRegion PriceBasis = "fallback-region"
	PriceMissing            PriceBasis = "missing"     // no price at all: MissingPrice
	PriceUnknownSKU         PriceBasis = "unknown-sku" // size not in known_skus.yaml: MissingPrice
)

// Price is the hourly price Karpenter would rank an offering by.
type Price struct {
	Value float64
	Basis PriceBasis
	// Source is the provenance shown to users: "list YYYY-MM-DD", "override…"
	// or "estimated: …" / "missing: …" saying what the number is.
	Source string
}

// Estimated reports whether the price is not the region's own list price.
func (p Price) Estimated() bool { return p.Basis != PriceListed }

// skuPrices follows upstream's pricing provider (pkg/providers/pricing in
// karpenter-provider-azure v1.14.2): on-demand is the region's price (eastus's
// when the region has no on-demand prices at all), and sizes absent from
// known_skus.yaml get the penalty price. Upstream's spot table is live Retail
// Prices API data once its first call answers (the static on-demand table
// until then); offline, the spot list price of the snapshot stands in for it,
// else the catalog's labelled estimate.
func skuPrices(cat *catalog.Catalog, region string, s *catalog.SKU) (onDemand, spot Price) {
	if !s.KnownToKarpenter {
		p := Price{Value: MissingPrice, Basis: PriceUnknownSKU,
			Source: fmt.Sprintf("missing: %s is not in the Azure provider's known_skus.yaml, which prices it at %g USD/h so that it is never chosen automatically", s.Name, MissingPrice)}
		return p, p
	}
	missing := Price{Value: MissingPrice, Basis: PriceMissing,
		Source: fmt.Sprintf("missing: no price for %s, so Karpenter ranks it at %g USD/h", s.Name, MissingPrice)}
	onDemand, spot = missing, missing
	odRegion, basis := region, PriceListed
	if !cat.HasOnDemandPrices(region) {
		odRegion, basis = priceFallbackRegion, PriceFromFallbackRegion
	}
	if q, ok := cat.Quote(odRegion, s.Name, catalog.OnDemand); ok {
		onDemand = Price{q.Price, basis, q.Source}
		if basis == PriceFromFallbackRegion {
			onDemand.Source = fmt.Sprintf("estimated: the %s %s price (%s; Karpenter's static table falls back to %s)",
				priceFallbackRegion, q.Source, noPricesIn(region), priceFallbackRegion)
		}
	}
	if q, ok := cat.Quote(region, s.Name, catalog.Spot); ok && !q.Estimated {
		return onDemand, Price{q.Price, PriceListed, q.Source}
	}
	if q, ok := cat.Quote(odRegion, s.Name, catalog.Spot); ok {
		spot = Price{q.Price, PriceSpotEstimated, q.Source}
		if odRegion != region {
			spot.Source += fmt.Sprintf(", applied to the %s on-demand price (%s)", odRegion, noPricesIn(region))
		}
		if !q.Estimated {
			// A listed eastus spot price standing in for a region without prices.
			spot = Price{q.Price, PriceFromFallbackRegion, fmt.Sprintf("estimated: the %s %s price (%s)", priceFallbackRegion, q.Source, noPricesIn(region))}
		}
	}
	return onDemand, spot
}

func noPricesIn(region string) string {
	if region == "" {
		return "no region is set"
	}
	return region + " has no on-demand prices"
}
