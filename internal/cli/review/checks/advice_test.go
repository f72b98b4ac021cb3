package checks

import (
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// TestReconcileAdviceReadsTheStructuredCap: KRP119's cap is read from the finding, not from
// its fix's wording, so a reworded fix still gets reconciled with KRP118's.
func TestReconcileAdviceReadsTheStructuredCap(t *testing.T) {
	const key = "karpenter.azure.com/sku-cpu"
	for _, tc := range []struct {
		asked, advised int
		fix, advice    string
	}{
		{625, 65, "KRP118 advises the tighter " + key + " Lt 65", "it also satisfies KRP119 on the pool, whose " + key + " Lt 625"},
		{33, 65, "which is not enough for this: " + key + " Lt 33 serves both", "KRP119 on the pool asks for " + key + " Lt 33"},
	} {
		reservation := source.Finding{Finding: findings.Finding{Code: findings.LimitsReservation, Object: "NodePool/general",
			Fix: "a cap on the sizes, worded any way", SuggestedCap: &findings.Cap{Key: key, Below: tc.asked}}}
		advice := source.Finding{Finding: findings.Finding{Code: findings.KarpenterDesignCost, Object: "NodePool/general", Message: "add it"}}
		a := &simulation.Advice{Edit: simulation.Edit{Pool: "general", Requirement: corev1.NodeSelectorRequirement{
			Key: key, Operator: corev1.NodeSelectorOpLt, Values: []string{strconv.Itoa(tc.advised)}}}}
		fs := []source.Finding{reservation}
		ReconcileAdvice(fs, &advice, a)
		if !strings.Contains(fs[0].Fix, tc.fix) {
			t.Errorf("asked %d, advised %d: KRP119's fix %q, want it to say %q", tc.asked, tc.advised, fs[0].Fix, tc.fix)
		}
		if !strings.Contains(advice.Message, tc.advice) {
			t.Errorf("asked %d, advised %d: KRP118's message %q, want it to say %q", tc.asked, tc.advised, advice.Message, tc.advice)
		}
	}
}
