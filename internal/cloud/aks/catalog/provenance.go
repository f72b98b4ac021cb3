package catalog

import (
	"fmt"
	"strings"
)

// PriceProvenance describes the catalog's prices in a few lines for version
// output: per capacity type, each source with its regions and count, and what
// stands in where there is none.
func (c *Catalog) PriceProvenance() []string {
	byCT := map[CapacityType][]string{}
	for _, s := range c.PriceSources() {
		byCT[s.CapacityType] = append(byCT[s.CapacityType], fmt.Sprintf("%s (%d regions, %d prices)", s.Source, s.Regions, s.Prices))
	}
	lines := []string{"on-demand prices: " + orNone(byCT[OnDemand])}
	spot := "spot prices: " + orNone(byCT[Spot])
	spot += "; elsewhere estimated from the on-demand price and the spot/on-demand ratio observed for the same size (else its family, else all sizes)"
	return append(lines, spot)
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}
