package karpenter

import (
	"testing"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// costOfResult is the hourly cost of the nodes a result launches.
func costOfResult(r *Result) float64 {
	c := 0.0
	for _, nc := range r.NodeClaims {
		if nc.Launch != nil {
			c += nc.Launch.Offering.Price
		}
	}
	return c
}

// Extremes descends from the rounds it is given toward the cheapest and the dearest outcome.
// It never returns one less extreme than its start, stays within its budget, and gives the
// same rounds on every call. Where a sample of Karpenter's choices lands above and below the
// first round's cost, the descent from the first round alone finds both directions.
func TestExtremesDescendsTowardBothEnds(t *testing.T) {
	in := Input{NodePools: []*karpv1.NodePool{pool("arm")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"arm": listedZoneTypes("eastus")}, Pods: u36Pods(12)}
	first, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	draws, err := Sample(in, first, 64)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := costOfResult(first), costOfResult(first)
	for _, r := range draws {
		lo, hi = min(lo, costOfResult(r)), max(hi, costOfResult(r))
	}
	if lo == hi {
		t.Fatalf("64 draws over %d ties all cost %g: the input does not exercise the search", first.Ties, lo)
	}
	cheapest, dearest, runs, err := Extremes(in, []*Result{first}, 32, costOfResult)
	if err != nil {
		t.Fatal(err)
	}
	if runs > 64 {
		t.Fatalf("%d runs, budget 2 × 32", runs)
	}
	c, d := costOfResult(cheapest), costOfResult(dearest)
	if c > costOfResult(first) || d < costOfResult(first) {
		t.Fatalf("cheapest %g, dearest %g, from %g", c, d, costOfResult(first))
	}
	if lo < costOfResult(first) && c >= costOfResult(first) {
		t.Errorf("a draw costs %g, below the first round's %g; the descent found nothing cheaper", lo, costOfResult(first))
	}
	if hi > costOfResult(first) && d <= costOfResult(first) {
		t.Errorf("a draw costs %g, above the first round's %g; the descent found nothing dearer", hi, costOfResult(first))
	}
	again, _, _, err := Extremes(in, []*Result{first}, 32, costOfResult)
	if err != nil || placementsOf(again) != placementsOf(cheapest) {
		t.Fatalf("a second call gave another cheapest round (%v)", err)
	}
}
