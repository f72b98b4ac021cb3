package benchcmp

import (
	"testing"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// TestDisruptionCorpusCoverage checks that the full seeded disruption corpus (the make
// target's 160 cases) holds what the comparator is meant to cover: at least 150 cases; every
// kind; AKS and EKS; budgets with schedules and per reason; PDBs; do-not-disrupt; the
// Balanced, WhenEmpty and WhenEmptyOrUnderutilized policies; spot and on-demand pools; and
// expiry. It draws the cases only (no API server).
func TestDisruptionCorpusCoverage(t *testing.T) {
	const size = 160
	seen := map[string]int{}
	for i := range size {
		c := disruptionCorpusCase(1, i, 300)
		seen["kind:"+c.kind]++
		if c.sc.eks {
			seen["eks"]++
		} else {
			seen["aks"]++
		}
		for _, tag := range c.tags {
			seen[tag]++
		}
		for _, np := range c.sc.pools {
			seen["policy:"+string(np.Spec.Disruption.ConsolidationPolicy)]++
			for _, r := range np.Spec.Template.Spec.Requirements {
				if r.Key == karpv1.CapacityTypeLabelKey {
					for _, v := range r.Values {
						seen["capacity:"+v]++
					}
				}
			}
		}
		if c.changed() != (c.kind != "settle") {
			t.Errorf("%s: kind %s but changed() is %v", c.name, c.kind, c.changed())
		}
	}
	want := []string{"kind:settle", "kind:scale-down", "kind:pool-change", "kind:class-change", "aks", "eks",
		"budget-schedule", "budget-reason", "pdb", "do-not-disrupt", "expiry", "balanced",
		"policy:WhenEmpty", "policy:WhenEmptyOrUnderutilized", "policy:Balanced", "capacity:spot", "capacity:on-demand"}
	for _, w := range want {
		if seen[w] == 0 {
			t.Errorf("the corpus has no case with %s", w)
		}
	}
	if size < 150 {
		t.Errorf("the corpus has %d cases, want at least 150", size)
	}
	t.Logf("coverage of %d cases: %v", size, seen)
}
