package benchcmp

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestReachDisruptionWalksTheTies checks the judge's search on dis1-006, a pool change whose
// emulation meets a few ties with several outcomes: an outcome another tie-break gives is
// found, guided by it; an outcome no tie-break gives is not, within the bound on runs; and
// one contradicted by its first launch is proven out of reach, every branch cut.
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
		rng := rand.New(rand.NewPCG(seed, 7))
		script := make([]int, len(tb.arities))
		for i, a := range tb.arities {
			script[i] = rng.IntN(a)
		}
		o, err := emulatedDisruptionWith(c, &disruptionTies{script: script})
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
	// Nodes of a pool the case does not have: every run goes astray at its first launch.
	alien := disruptionOutcome{}
	for _, k := range first.before {
		k.pool = "none"
		alien.before = append(alien.before, k)
	}
	alien.after = alien.before
	r, err = reachDisruption(c, first, tb, alien, 1000, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if r.found != nil || !r.exhaustive || r.cut != r.runs-1 || len(r.outcomes) != 1 {
		t.Fatalf("%s: nodes no run launches: found %v, exhaustive %v, %d of %d runs cut, %d outcomes; want every run after the default cut, the tree exhausted", c.name, r.found != nil, r.exhaustive, r.cut, r.runs, len(r.outcomes))
	}
}

// TestDisruptionGuideFollows checks the guide's test of a partial run against Karpenter's:
// the disruptions of a run of one reason in any order, the runs in order, none more.
func TestDisruptionGuideFollows(t *testing.T) {
	ev := func(at time.Duration, reason, pool string) disruptionEvent {
		return disruptionEvent{at: at, reason: reason, node: nodeKey{pool: pool}}
	}
	a, b, c := ev(time.Minute, "Empty", "a"), ev(2*time.Minute, "Empty", "b"), ev(3*time.Minute, "Drifted", "c")
	g := newDisruptionGuide(disruptionOutcome{disruptions: []disruptionEvent{a, b, c}})
	for _, tc := range []struct {
		got  []disruptionEvent
		want bool
	}{
		{nil, true},
		{[]disruptionEvent{a}, true},
		{[]disruptionEvent{b}, true},
		{[]disruptionEvent{b, a}, true},
		{[]disruptionEvent{a, b, c}, true},
		// The emulation's times need not be Karpenter's.
		{[]disruptionEvent{ev(0, "Empty", "b"), ev(time.Hour, "Empty", "a")}, true},
		{[]disruptionEvent{c}, false},
		{[]disruptionEvent{a, c}, false},
		{[]disruptionEvent{a, a}, false},
		{[]disruptionEvent{ev(time.Minute, "Drifted", "a")}, false},
		{[]disruptionEvent{a, b, c, c}, false},
	} {
		if got := g.follows(tc.got); got != tc.want {
			t.Errorf("follows(%v) = %v, want %v", tc.got, got, tc.want)
		}
	}
}
