package analysis

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
)

// A pool whose only size has no price in Karpenter's tables (KRP115): the summary's price
// source, which the nodepool's analysis attribute shows as price_source, names the penalty
// price through money, with its currency code first.
func TestPenaltyPriceSourceInSummary(t *testing.T) {
	a := testSolver.Analyze(pool(someLimits, req("node.kubernetes.io/instance-type", corev1.NodeSelectorOpIn, "Standard_A2")), Options{Region: "westeurope"})
	if findingOf(a, findings.OnlyPenaltyPricedSKU) == nil {
		t.Fatalf("Standard_A2 is not only penalty priced: %+v %v", a.Summary, a.Findings)
	}
	want := money.Hourly(a.Summary.Currency, 999)
	if !strings.Contains(a.Summary.PriceSource, want) {
		t.Errorf("price source %q does not carry %q", a.Summary.PriceSource, want)
	}
	for ct, c := range a.Summary.CapacityTypes {
		if !strings.Contains(c.PriceSource, want) {
			t.Errorf("%s price source %q does not carry %q", ct, c.PriceSource, want)
		}
	}
}
