package benchcmp

import (
	"errors"
	"testing"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// The disruption gate is TestCompareUpstreamDisruption's verdict. In the suite (make test) it
// fails when a case of the capped corpus is proven out of reach (no tie, or every tie-break
// run: a rule differs); make compare-upstream-disruption (DISRUPTION_GATE=1) fails as well on
// a case the bounded tie search did not reach.
//
// TestDisruptionGateCatchesWrongRule breaks one of the emulation's rules on purpose: its pools
// consolidate only empty nodes (WhenEmpty), where Karpenter's also replace or remove
// underutilized ones. On a seeded case where Karpenter consolidates an underutilized node, and
// the emulation with its own rules is identical, the broken emulation must differ and the
// gate must count it as a difference no tie-break tried reaches, which DISRUPTION_GATE=1 fails
// on.
func TestDisruptionGateCatchesWrongRule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Karpenter's controllers on an API server")
	}
	if _, err := sharedDisruptionEnvironment(); err != nil {
		if errors.Is(err, errNoAPIServer) {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	// dis1-016: one westeurope pool, 40 pods; Karpenter removes one underutilized node.
	c := disruptionCorpusCase(1, 16, 40)
	own := compareDisruption(t, []disruptionCase{c}, false)
	if own.same != 1 {
		t.Fatalf("%s: with the emulation's own rules the case is not identical; pick another case", c.name)
	}
	c.wrongRule = func(np *karpv1.NodePool) {
		np.Spec.Disruption.ConsolidationPolicy = karpv1.ConsolidationPolicyWhenEmpty
	}
	broken := compareDisruption(t, []disruptionCase{c}, true)
	if broken.ruleDiffers != 1 {
		t.Fatalf("%s with WhenEmpty on the emulation's side only: the gate counted %d rule differences, want 1 (identical %d, tied %d)",
			c.name, broken.ruleDiffers, broken.same, broken.tied)
	}
}
