package source

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// staticSpotPrices is the reference snapshot of Linux spot list prices
// (prices_spot_by_region.json): region → ARM SKU name → spot USD/hour, taken
// from public Retail Prices API snapshots. Rows whose size name could not be
// resolved are listed apart in _meta and are not read.
type staticSpotPrices struct {
	Meta struct {
		AsOf   string `json:"as_of"`
		Source string `json:"source"`
		// Refreshed: as in the on-demand file, the regions make update-catalog fetched.
		Refreshed map[string]string `json:"refreshed"`
	} `json:"_meta"`
	Spot map[string]map[string]float64 `json:"spot"`
}

func (b *Builder) readStaticSpotPrices(name string, data []byte) error {
	var in staticSpotPrices
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	date := dateOf(in.Meta.AsOf)
	if date == "" {
		return fmt.Errorf("_meta.as_of must start with the snapshot's date (YYYY-MM-DD), got %q", in.Meta.AsOf)
	}
	n := 0
	for region, bySKU := range in.Spot {
		for sku, price := range bySKU {
			if price < 0 {
				return fmt.Errorf("negative spot price for %s in %s", sku, region)
			}
			d := date
			if r := dateOf(in.Meta.Refreshed[region]); r != "" {
				d = r
			}
			b.setPrice(region, sku, true, price, d, catalog.ListSource(d))
			n++
		}
	}
	if commit := sourceCommit(in.Meta.Source); commit != "" {
		b.spotSnapshots[commit] = date
	}
	b.note("%s: spot list prices (%s, as of %s), %d regions, %d entries", name, in.Meta.Source, date, len(in.Spot), n)
	noteRefreshed(b, name, in.Meta.Refreshed)
	return nil
}

// noteRefreshed records the regions a refresh replaced, in a stable order.
func noteRefreshed(b *Builder, name string, refreshed map[string]string) {
	for _, region := range sortedKeys(refreshed) {
		b.note("%s: %s refreshed from the Retail Prices API at %s", name, region, refreshed[region])
	}
}

// priceCorrections is ondemand_crosscheck_eu_2026-08.json: the pairs where the
// static on-demand table differs from the Linux list price of the same
// snapshots as the spot prices (most of them carry the Windows price).
type priceCorrections struct {
	Meta struct {
		Source string `json:"source"`
	} `json:"_meta"`
	Mismatches []struct {
		Region     string   `json:"region"`
		SKU        string   `json:"sku"`
		TableValue float64  `json:"ondemand_file_value"`
		Linux      *float64 `json:"linux_retail_2026_08"`
		Kind       string   `json:"kind"`
	} `json:"mismatches"`
}

// readPriceCorrections replaces those on-demand prices by the snapshots' Linux
// list price: Karpenter on Azure prices Linux nodes by the Linux meter once its
// live pricing call answers, so the newer Linux price is what it ranks by.
func (b *Builder) readPriceCorrections(name string, data []byte) error {
	var in priceCorrections
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	date := b.spotSnapshots[sourceCommit(in.Meta.Source)]
	if date == "" {
		return fmt.Errorf("the cross-check carries no date of its own; read the spot snapshot of the same source (%s) first", in.Meta.Source)
	}
	for i, m := range in.Mismatches {
		if m.Region == "" || m.SKU == "" || m.Linux == nil || *m.Linux < 0 {
			return fmt.Errorf("mismatches[%d]: region, sku and a non-negative linux_retail_2026_08 are required", i)
		}
		b.setPrice(m.Region, m.SKU, false, *m.Linux, date, catalog.ListSource(date))
	}
	b.note("%s: %d on-demand prices corrected to the Linux list price of %s", name, len(in.Mismatches), date)
	return nil
}

// sourceCommit returns the commit after "@" in a snapshot's source line.
func sourceCommit(source string) string {
	_, rest, ok := strings.Cut(source, "@")
	if f := strings.Fields(rest); ok && len(f) > 0 {
		return f[0]
	}
	return ""
}

// dateOf returns the leading YYYY-MM-DD of a timestamp, or "" if there is none.
func dateOf(ts string) string {
	if len(ts) < 10 || ts[4] != '-' || ts[7] != '-' {
		return ""
	}
	return ts[:10]
}
