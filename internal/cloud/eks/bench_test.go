package eks

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// BenchmarkInstanceTypes: all 1,363 types for one region and the default node
// class (the catalog decoded beforehand; its one-off decode is
// BenchmarkDecode).
func BenchmarkInstanceTypes(b *testing.B) {
	cat := catalog.Default()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Derive(cat, "us-east-1", NodeClass{}, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
