package analysis

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// BenchmarkAdmissibility measures one NodePool's analysis over every instance type of a region
// (westeurope) and of the whole catalog (every SKU, region unset): the work a plan does per
// NodePool once the types are derived (the derivation is cached per solver, as in a provider
// process, so it is done before the timer starts).
func BenchmarkAdmissibility(b *testing.B) {
	s := New(catalog.Default())
	pool := benchPool()
	for _, scope := range []struct{ name, region string }{{"westeurope", "westeurope"}, {"full-catalog", AnyRegion}} {
		b.Run(scope.name, func(b *testing.B) {
			o := Options{Region: scope.region}
			a := s.Analyze(pool, o) // derive and cache the instance types
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				a = s.Analyze(pool, o)
			}
			b.ReportMetric(float64(len(a.Admissible)), "admissible")
		})
	}
}

// benchPool is an on-demand amd64 pool of the D, E and F families.
func benchPool() *Pool {
	pool := NewPool(&karpv1.NodePool{Spec: karpv1.NodePoolSpec{Template: karpv1.NodeClaimTemplate{Spec: karpv1.NodeClaimTemplateSpec{
		Requirements: []karpv1.NodeSelectorRequirementWithMinValues{
			{Key: corev1.LabelArchStable, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.ArchitectureAmd64}},
			{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.CapacityTypeOnDemand}},
			{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpIn, Values: []string{"D", "E", "F"}},
		},
	}}}})
	pool.Name = "default"
	return pool
}
