package benchcmp

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestReachDisruptionWalksTheTies checks the judge's search on dis1-006, a pool change whose
// emulation meets a few ties with several outcomes: an outcome another tie-break gives is
// found, and an outcome no tie-break gives is not, within the bound on runs, with the
// choices before the change kept where they already give the target's nodes.
func TestReachDisruptionWalksTheTies(t *testing.T) {
	c := disruptionCorpusCase(1, 6, 40)
	tb := &disruptionTies{}
	first, err := emulatedDisruptionWith(c, tb)
	if err != nil {
		t.Fatal(err)
	}
	if first.ties == 0 || first.ties != len(tb.arities) {
		t.Fatalf("%s: %d ties counted, %d met by the breaker; want the same, more than none", c.name, first.ties, len(tb.arities))
	}
	var other *disruptionOutcome
	for seed := uint64(1); seed <= 16 && other == nil; seed++ {
		o, err := emulatedDisruptionWith(c, &disruptionTies{rng: rand.New(rand.NewPCG(seed, 7))})
		if err != nil {
			t.Fatal(err)
		}
		if disruptionSignature(o) != disruptionSignature(first) {
			other = &o
		}
	}
	if other == nil {
		t.Fatalf("%s: 16 random tie-breaks all gave the default outcome; pick another case", c.name)
	}
	r, err := reachDisruption(c, first, tb, *other, 64, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if r.found == nil || disruptionSignature(*r.found) != disruptionSignature(*other) {
		t.Fatalf("%s: another tie-break's outcome not found in %d runs:\n%s", c.name, r.runs, disruptionSignature(*other))
	}
	// No tie-break removes a node for a reason the case never disrupts for.
	unreachable := first
	unreachable.disruptions = append(append([]disruptionEvent(nil), first.disruptions...), disruptionEvent{reason: "Expired"})
	r, err = reachDisruption(c, first, tb, unreachable, 64, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if r.found != nil || r.runs > 64 || (!r.exhaustive && r.runs != 64) {
		t.Fatalf("%s: an outcome no tie-break gives: found %v, exhaustive %v after %d runs (bound 64)", c.name, r.found != nil, r.exhaustive, r.runs)
	}
	// Its nodes before the change are the default run's: the walk keeps those choices.
	if !r.exhaustive {
		for _, o := range r.outcomes {
			if nodeKeysString(o.before) != nodeKeysString(first.before) {
				t.Errorf("%s: the walk changed the nodes before the change, which already were the target's: %s", c.name, nodeKeysString(o.before))
			}
		}
	}
}
