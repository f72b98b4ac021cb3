package karpenter

import (
	"testing"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// Sample draws n rounds with seeded random tie-breaks. It gives the same n outcomes on every
// call, since a prediction's expected cost must not change between two plans. Where the ties
// change the outcome, the n outcomes are not all the same.
func TestSampleIsSeededAndVaries(t *testing.T) {
	in := Input{NodePools: []*karpv1.NodePool{pool("arm")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"arm": listedZoneTypes("eastus")}, Pods: u36Pods(12)}
	first, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Sample(in, first, 8)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Sample(in, first, 8)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 8 || len(b) != 8 {
		t.Fatalf("%d and %d results, want 8", len(a), len(b))
	}
	distinct := map[string]bool{}
	for i := range a {
		if placementsOf(a[i]) != placementsOf(b[i]) {
			t.Fatalf("draw %d differs between two calls:\n%s\n%s", i, placementsOf(a[i]), placementsOf(b[i]))
		}
		distinct[placementsOf(a[i])] = true
	}
	if len(distinct) < 2 {
		t.Fatalf("8 draws over %d ties gave one outcome", first.Ties)
	}
}

// FixedTies answers every tie before the breaker. The round is the one a breaker taking the
// same choices gives. None of its ties is counted, so Outcomes has nothing to vary.
func TestFixedTiesAreRulesNotTies(t *testing.T) {
	in := Input{NodePools: []*karpv1.NodePool{pool("arm")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"arm": listedZoneTypes("eastus")}, Pods: u36Pods(12)}
	in.TieBreaks = lastTie{}
	want, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	in.TieBreaks = nil
	in.FixedTies = func(_, n int) (int, bool) { return n - 1, true }
	got, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	if want.Ties == 0 || got.Ties != 0 || placementsOf(got) != placementsOf(want) {
		t.Fatalf("fixed last choice: %d ties, %s; a breaker taking the last: %d ties, %s", got.Ties, placementsOf(got), want.Ties, placementsOf(want))
	}
	set, err := Outcomes(in, got, 16, placementsOf)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Results) != 1 || !set.Exhaustive {
		t.Fatalf("Outcomes over fixed ties: %d outcomes, exhaustive %v", len(set.Results), set.Exhaustive)
	}
}
