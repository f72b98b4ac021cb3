package benchcmp

import (
	"io"
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
