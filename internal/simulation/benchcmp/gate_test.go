package benchcmp

import (
	"io"
	"strings"
	"testing"
)

// TestFidelityGateCatchesWrongTieRule breaks one of the emulation's tie decisions on purpose:
// every tie takes its last alternative as a fixed rule (karpenter.Input.FixedTies), where
// Karpenter takes whichever its map order gives first. On seeded scenarios where Karpenter's
// own runs differ, the emulation then has one outcome only, and the gate must fail: a run
// proven out of its reach, or outside the shown range. The same scenarios with the emulation's
// own rules must not have a run ruled out.
func TestFidelityGateCatchesWrongTieRule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Karpenter's scheduler")
	}
	// seed1-017 (150 pods, 11 ties; Karpenter's runs land on several outcomes) and seed1-022
	// (84 pods, 4 ties; two outcomes of equal cost).
	caught := 0
	for _, i := range []int{17, 22} {
		sc := corpusScenario(1, i, 150, cachedRegionTypes)
		sc.seeded = true
		var tl tally
		own, ok := measureScenario(t, sc, &tl, io.Discard)
		if !ok {
			return
		}
		if own.verdict == ruledOut {
			t.Errorf("%s: with the emulation's own rules a Karpenter run is ruled out", sc.name)
		}
		sc.fixedTies = func(_, n int) (int, bool) { return n - 1, true }
		broken, ok := measureScenario(t, sc, &tl, io.Discard)
		if !ok {
			return
		}
		if f := broken.gateFailure(); f != "" {
			caught++
			t.Logf("%s with the broken tie rule: %s", sc.name, f)
		}
	}
	if caught == 0 {
		t.Fatal("the gate passed every scenario with a tie rule broken on purpose")
	}
}

// A run outside an exhaustive range fails its scenario: the range holds every outcome of the
// rules. A run outside a range that is not exhaustive fails no scenario alone, but more of
// them than 1 in searchMissFloor seeded scenarios fail the corpus.
func TestGateJudgesRangesByWhetherTheyAreBounds(t *testing.T) {
	outside := []runFigures{{inRange: true}, {inRange: false}}
	bound := scenarioFigures{name: "bound", runs: outside, seeded: true, exhaustive: true}
	if bound.gateFailure() == "" {
		t.Error("a run outside an exhaustive range passed the gate")
	}
	found := scenarioFigures{name: "found", runs: outside, seeded: true}
	if f := found.gateFailure(); f != "" {
		t.Errorf("a run outside a non-exhaustive range failed its scenario: %s", f)
	}
	var tl userTally
	for i := range 200 {
		sf := scenarioFigures{name: "in", runs: []runFigures{{inRange: true}}, seeded: true}
		if i < 2 {
			sf = found
		}
		tl.addScenario(sf)
	}
	if f := tl.searchFailure(); f != "" {
		t.Errorf("2 misses in 200 scenarios: %s", f)
	}
	tl.addScenario(found)
	if tl.searchFailure() == "" {
		t.Error("3 misses in 201 scenarios passed the gate")
	}
	if got := tl.summary("", ""); !strings.Contains(got, "(3 with a run outside a range that is not exhaustive)") {
		t.Errorf("summary: %s", got)
	}
}
