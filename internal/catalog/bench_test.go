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
