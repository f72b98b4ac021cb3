package eks

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// TestGettingStartedPoolAdmitsHundreds: Karpenter's getting-started NodePool
// (amd64, linux, on-demand, categories c/m/r, generation > 2) matches
// hundreds of us-east-1 types with a priced on-demand offering under
// Karpenter's own compatibility rules (issue 15's done-when), and
// instance-cpu Gt 4096 matches none.
func TestGettingStartedPoolAdmitsHundreds(t *testing.T) {
	its := derived(t, "us-east-1", NodeClass{})
	pool := func(extra ...corev1.NodeSelectorRequirement) scheduling.Requirements {
		return scheduling.NewNodeSelectorRequirements(append([]corev1.NodeSelectorRequirement{
			{Key: corev1.LabelArchStable, Operator: corev1.NodeSelectorOpIn, Values: []string{"amd64"}},
			{Key: corev1.LabelOSStable, Operator: corev1.NodeSelectorOpIn, Values: []string{"linux"}},
			{Key: "karpenter.sh/capacity-type", Operator: corev1.NodeSelectorOpIn, Values: []string{"on-demand"}},
			{Key: LabelInstanceCategory, Operator: corev1.NodeSelectorOpIn, Values: []string{"c", "m", "r"}},
			{Key: LabelInstanceGeneration, Operator: corev1.NodeSelectorOpGt, Values: []string{"2"}},
		}, extra...)...)
	}
	admitted := func(reqs scheduling.Requirements) int {
		n := 0
		for _, it := range its {
			if it.Requirements.Compatible(reqs, scheduling.AllowUndefinedWellKnownLabels) == nil &&
				len(it.Offerings.Available().Compatible(reqs)) > 0 {
				n++
			}
		}
		return n
	}
	n := admitted(pool())
	t.Logf("getting-started pool admits %d of %d us-east-1 types", n, len(its))
	if n < 200 {
		t.Errorf("getting-started pool admits %d types, want hundreds", n)
	}
	if n := admitted(pool(corev1.NodeSelectorRequirement{Key: LabelInstanceCPU, Operator: corev1.NodeSelectorOpGt, Values: []string{"4096"}})); n != 0 {
		t.Errorf("instance-cpu Gt 4096 admits %d types", n)
	}
}
