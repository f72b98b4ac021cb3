package catalog

import (
	"bytes"
	"testing"
)

// BenchmarkDecode: the one-off cost of the embedded artefact on first use.
func BenchmarkDecode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(bytes.NewReader(embedded)); err != nil {
			b.Fatal(err)
		}
	}
}
