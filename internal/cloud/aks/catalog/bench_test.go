package catalog

import (
	"bytes"
	"testing"
)

// BenchmarkCatalogLoad measures what Default costs on first use: gunzip and
// decode of the embedded artefact plus indexing.
func BenchmarkCatalogLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(embedded)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(embedded)), "artefact-bytes")
}

func BenchmarkPriceLookup(b *testing.B) {
	c := Default()
	for b.Loop() {
		c.Price("eastus", "Standard_D4s_v5", Spot)
	}
}

// BenchmarkSpotRatioIndex measures the one-off cost of the first spot estimate:
// the spot/on-demand ratios of every size, family and the whole catalog.
func BenchmarkSpotRatioIndex(b *testing.B) {
	c := Default()
	b.ReportAllocs()
	for b.Loop() {
		buildSpotRatios(c)
	}
}
