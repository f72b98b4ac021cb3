package catalog

import (
	"fmt"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
)

// CapacityType is Karpenter's capacity type of a price.
type CapacityType string

const (
	OnDemand CapacityType = "on-demand"
	Spot     CapacityType = "spot"
)

// PriceTable is one region's prices of one capacity type from one source.
type PriceTable struct {
	Region       string       `json:"r"`
	CapacityType CapacityType `json:"ct"`
	// Currency is the ISO code of the numbers (USD, CNY): the tables are stored
	// as their sources give them, never converted.
	Currency string `json:"cur"`
	// Source names the file and its snapshot date.
	Source string `json:"src"`
	// Estimate marks numbers that are not the price EC2 would bill (an old
	// third-party snapshot).
	Estimate bool               `json:"est,omitempty"`
	Prices   map[string]float64 `json:"p"`
}

// Price is an hourly price of one instance type with where it came from.
type Price struct {
	Value        float64
	Currency     string
	CapacityType CapacityType
	Source       string
	Estimate     bool
}

// String reads like "USD 0.096/h on-demand (source)", the amount written by money as every
// amount is, and says "estimate" where it is one.
func (p Price) String() string {
	kind := string(p.CapacityType)
	if p.Estimate {
		kind += " estimate"
	}
	return fmt.Sprintf("%s/h %s (%s)", money.Format(p.Currency, p.Value, -1), kind, p.Source)
}

// Price returns the price of the instance type in the region for the capacity
// type, or false when the catalog has none.
func (c *Catalog) Price(region, instanceType string, ct CapacityType) (Price, bool) {
	t := c.tables[tableKey{region, ct}]
	if t == nil {
		return Price{}, false
	}
	v, ok := t.Prices[instanceType]
	if !ok {
		return Price{}, false
	}
	return Price{Value: v, Currency: t.Currency, CapacityType: ct, Source: t.Source, Estimate: t.Estimate}, true
}

// PriceRegions returns the regions with a price table of the capacity type, sorted.
func (c *Catalog) PriceRegions(ct CapacityType) []string {
	var out []string
	for _, t := range c.PriceTables {
		if t.CapacityType == ct {
			out = append(out, t.Region)
		}
	}
	return out
}
