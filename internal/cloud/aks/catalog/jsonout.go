package catalog

import (
	"encoding/json"
	"io"
)

// WriteOverrideJSON writes the whole catalog as an override file in "replace"
// mode: the form in which users supply a fresher snapshot.
func (c *Catalog) WriteOverrideJSON(w io.Writer) error {
	type price struct {
		OnDemand       *float64 `json:"onDemand,omitempty"`
		Spot           *float64 `json:"spot,omitempty"`
		OnDemandSource string   `json:"onDemandSource,omitempty"`
		SpotSource     string   `json:"spotSource,omitempty"`
	}
	out := struct {
		Mode     string                      `json:"mode"`
		Currency string                      `json:"currency,omitempty"`
		Sources  []string                    `json:"sources,omitempty"`
		SKUs     []*SKU                      `json:"skus"`
		Prices   map[string]map[string]price `json:"prices"`
		Regions  []Region                    `json:"regions,omitempty"`
	}{Mode: "replace", Currency: c.meta.Currency, Sources: c.meta.Sources, SKUs: c.skus, Prices: map[string]map[string]price{}}
	for region, rp := range c.prices {
		m := make(map[string]price, len(rp.names))
		for i, name := range rp.names {
			p := rp.vals[i]
			var e price
			if p.HasOnDemand {
				v := p.OnDemand
				e.OnDemand, e.OnDemandSource = &v, p.OnDemandSource
			}
			if p.HasSpot {
				v := p.Spot
				e.Spot, e.SpotSource = &v, p.SpotSource
			}
			m[name] = e
		}
		out.Prices[region] = m
	}
	for _, name := range sortedKeys(c.region) {
		out.Regions = append(out.Regions, c.region[name])
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}
