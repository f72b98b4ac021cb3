package aks

import (
	"fmt"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
)

// MissingPrice is the Azure provider's penalty price (per hour, in its price table's
// currency) for sizes it has no price for, or does not know: high enough never to be picked
// automatically, yet the size stays launchable when a NodePool asks for it by name.
const MissingPrice = 999.0

// priceFallbackRegion is where upstream's static price table falls back to when
// a region has no prices of its own.
const priceFallbackRegion = "eastus"

// PriceBasis and Price are the cloud seam's: on Azure a spot estimate is
// derived from the on-demand price as catalog.Quote says, the fallback region
// is eastus, and the penalty price is MissingPrice (unpriced, or not in the
// provider's known_skus.yaml).
type (
	PriceBasis = cloud.PriceBasis
	Price      = cloud.Price
)

const (
	PriceListed             = cloud.PriceListed
	PriceSpotEstimated      = cloud.PriceSpotEstimated
	PriceFromFallbackRegion = cloud.PriceFromFallbackRegion
	PriceMissing            = cloud.PriceMissing
	PriceUnknownSKU         = cloud.PriceUnknownSKU
)

// skuPrices follows upstream's pricing provider (pkg/providers/pricing in
// karpenter-provider-azure v1.14.2): on-demand is the region's price (eastus's
// when the region has no on-demand prices at all), and sizes absent from
// known_skus.yaml get the penalty price. Upstream's spot table is live Retail
// Prices API data once its first call answers (the static on-demand table
// until then); offline, the spot list price of the snapshot stands in for it,
// else the catalog's labelled estimate.
func skuPrices(cat *catalog.Catalog, region string, s *catalog.SKU) (onDemand, spot Price) {
	onDemand, spot = listedPrices(cat, region, s)
	onDemand.Currency, spot.Currency = cat.Currency(), cat.Currency()
	return onDemand, spot
}

// listedPrices is skuPrices without the currency field, which is the catalog's. The penalty
// price is a number of the catalog's price table (Karpenter ranks the numbers), so its source
// names it in the catalog's currency, through money like every other amount.
func listedPrices(cat *catalog.Catalog, region string, s *catalog.SKU) (onDemand, spot Price) {
	penalty := money.Hourly(cat.Currency(), MissingPrice)
	if !s.KnownToKarpenter {
		p := Price{Value: MissingPrice, Basis: PriceUnknownSKU,
			Source: fmt.Sprintf("missing: %s is not in the Azure provider's known_skus.yaml, which prices it at %s so that it is never chosen automatically", s.Name, penalty)}
		return p, p
	}
	missing := Price{Value: MissingPrice, Basis: PriceMissing,
		Source: fmt.Sprintf("missing: no price for %s, so Karpenter ranks it at %s", s.Name, penalty)}
	onDemand, spot = missing, missing
	odRegion, basis := region, PriceListed
	if !cat.HasOnDemandPrices(region) {
		odRegion, basis = priceFallbackRegion, PriceFromFallbackRegion
	}
	if q, ok := cat.Quote(odRegion, s.Name, catalog.OnDemand); ok {
		onDemand = Price{Value: q.Price, Basis: basis, Source: q.Source}
		if basis == PriceFromFallbackRegion {
			onDemand.Source = fmt.Sprintf("estimated: the %s %s price (%s; Karpenter's static table falls back to %s)",
				priceFallbackRegion, q.Source, noPricesIn(region), priceFallbackRegion)
		}
	}
	if q, ok := cat.Quote(region, s.Name, catalog.Spot); ok && !q.Estimated {
		return onDemand, Price{Value: q.Price, Basis: PriceListed, Source: q.Source}
	}
	if q, ok := cat.Quote(odRegion, s.Name, catalog.Spot); ok {
		spot = Price{Value: q.Price, Basis: PriceSpotEstimated, Source: q.Source}
		if odRegion != region {
			spot.Source += fmt.Sprintf(", applied to the %s on-demand price (%s)", odRegion, noPricesIn(region))
		}
		if !q.Estimated {
			// A listed eastus spot price standing in for a region without prices.
			spot = Price{Value: q.Price, Basis: PriceFromFallbackRegion, Source: fmt.Sprintf("estimated: the %s %s price (%s)", priceFallbackRegion, q.Source, noPricesIn(region))}
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
