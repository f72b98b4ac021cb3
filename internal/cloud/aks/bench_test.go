package aks

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// BenchmarkInstanceTypesFullCatalog derives every instance type of one region
// from the embedded catalog for the default node class.
func BenchmarkInstanceTypesFullCatalog(b *testing.B) {
	cat := catalog.Default()
	const region = "eastus"
	skus := cat.SKUsInRegion(region)
	b.ReportAllocs()
	b.ResetTimer()
	var kept int
	for b.Loop() {
		kept = len(List(cat, region, NodeClass{}, Cluster{}).InstanceTypes)
	}
	b.ReportMetric(float64(len(skus)), "skus")
	b.ReportMetric(float64(kept), "instancetypes")
}
