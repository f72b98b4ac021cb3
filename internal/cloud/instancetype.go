package cloud

import (
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// InstanceType is Karpenter's instance type plus what the cloud's catalog knows about how
// certain it is: whether its zones are known, and where its prices come from.
type InstanceType struct {
	*cloudprovider.InstanceType
	// ZonesKnown is false when the catalog does not know the type's zones in the region: its
	// offerings then cover the zones the cloud assumes (on AKS every zone of the region, when
	// the catalog knows them) or regional placement only, and zonal availability is assumed,
	// not known.
	ZonesKnown bool
	// OnDemand and Spot are the prices the provider ranks the offerings by, with provenance.
	OnDemand Price
	Spot     Price
	// MemoryGiB is the memory the cloud sells the type with (before VM overhead).
	MemoryGiB float64
}

// PriceBasis says where an offering's price came from.
type PriceBasis string

const (
	PriceListed PriceBasis = "listed" // the region's list (or override) price
	// PriceSpotEstimated: no spot price is listed for the type in the region, so it is
	// estimated from the on-demand price.
	PriceSpotEstimated PriceBasis = "spot-estimated"
	// PriceFromFallbackRegion: the region has no price list; the provider uses another region's.
	PriceFromFallbackRegion PriceBasis = "fallback-region"
	PriceMissing            PriceBasis = "missing"     // no price at all: the provider's penalty price
	PriceUnknownSKU         PriceBasis = "unknown-sku" // type unknown to the provider: its penalty price
)

// Price is the hourly price Karpenter would rank an offering by.
type Price struct {
	Value float64
	// Currency is the ISO 4217 code of Value, its price table's ("" is USD).
	Currency string
	Basis    PriceBasis
	// Source is the provenance shown to users: "list YYYY-MM-DD", "override…" or
	// "estimated: …" / "missing: …" saying what the number is.
	Source string
}

// Estimated reports whether the price is not the region's own list price.
func (p Price) Estimated() bool { return p.Basis != PriceListed }

// Penalty reports whether the price is the provider's penalty for a type it has no price for
// (or does not know): a rank that keeps it from being chosen automatically, not a cost.
func (p Price) Penalty() bool { return p.Basis == PriceMissing || p.Basis == PriceUnknownSKU }

// PriceOf returns the type's price record for an offering's capacity type.
func (it *InstanceType) PriceOf(of *cloudprovider.Offering) Price {
	if of.CapacityType() == karpv1.CapacityTypeSpot {
		return it.Spot
	}
	return it.OnDemand
}

// ZoneAssumed reports whether zone, an offering's zone, is one the cloud assumed the type is
// offered in rather than one its catalog lists: the zones are not known, and the zone is a zone
// (not "" nor AKS's regional placement "0", which the Azure provider offers every size in).
func ZoneAssumed(it *InstanceType, zone string) bool {
	return !it.ZonesKnown && zone != "" && zone != "0"
}

// ZoneOf is the offering's zone, "" when the offering has none (a cloud whose catalog has no
// zones, such as EKS's: its offerings are regional). Offering.Zone would return a random
// string there (Requirement.Any of an undefined key), which must not reach a report or key a map.
func ZoneOf(o *cloudprovider.Offering) string {
	if !o.Requirements.Has(corev1.LabelTopologyZone) {
		return ""
	}
	return o.Zone()
}
