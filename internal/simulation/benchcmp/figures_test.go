package benchcmp

import (
	"fmt"
	"math"
	"slices"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// The comparator measures two things per Karpenter run. The rules' figures say whether the
// emulation's rules are Karpenter's: the run is among the emulation's outcomes (its sample or
// the guided search), or the exhaustive walk proves that no tie-break gives it. The user's
// figures say what a user of `simulate` or the data source gets: the shown prediction (the
// emulation's first outcome), its expected cost and its `hourly_cost_range`, computed as
// they compute them (simulation.TieFigures), never with outcomes the guided search found by
// following Karpenter's answer. A comparator over other inputs (e.g. several rounds) builds
// a shownFigures per prediction, a runFigures per Karpenter run and a scenarioFigures per
// scenario, adds them to a tally and calls its print and gate.

// shownFigures is what a user is shown for one scenario.
type shownFigures struct {
	first decision
	// lo and hi are the shown hourly cost range ([first.cost, first.cost] without ties);
	// expected the expected hourly cost (first.cost without ties).
	lo, hi, expected float64
	// exhaustive: the range holds every outcome of the emulation's rules (or there are no
	// ties), so it is a bound, not the outcomes a search found.
	exhaustive bool
}

// userFigures computes the shown figures of a scenario as Predict computes them. withRange
// false skips the range (the walk over the tie-breaks) for a caller that knows every Karpenter
// run is the shown outcome, which lies inside its range: lo and hi are then its cost.
func userFigures(in karpenter.Input, first *karpenter.Result, shown decision, withRange bool) (shownFigures, error) {
	f := shownFigures{first: shown, lo: shown.cost, hi: shown.cost, expected: shown.cost, exhaustive: first.Ties == 0}
	if !withRange {
		var err error
		f.expected, _, err = simulation.ExpectedCost(in, first)
		return f, err
	}
	cr, err := simulation.TieFigures(in, first)
	if err != nil || cr == nil {
		return f, err
	}
	f.lo, f.hi, f.expected, f.exhaustive = cr.Min, cr.Max, cr.Expected, cr.Exhaustive
	return f, nil
}

// runFigures is one Karpenter run measured against the emulation.
type runFigures struct {
	// The user's figures: the shown prediction is this run (same NodeClaims and pending pods);
	// the cost gaps of the shown and the expected cost from the run's, in per cent of the
	// run's; the run's cost inside the shown range.
	shownEqual            bool
	shownGap, expectedGap float64
	inRange               bool
	// The rules' figures: the run is among the emulation's outcomes; or the exhaustive walk
	// proved no tie-break gives it.
	reached, ruledOut bool
}

// measure is a Karpenter run's user figures against what was shown.
func (s shownFigures) measure(u decision) runFigures {
	eps := 1e-9 * math.Max(1, math.Abs(u.cost))
	return runFigures{
		shownEqual:  u.signature() == s.first.signature(),
		shownGap:    costDiff(s.first, u),
		expectedGap: costDiff(decision{cost: s.expected}, u),
		inRange:     u.cost >= s.lo-eps && u.cost <= s.hi+eps,
	}
}

// verdict is the rules' verdict on a scenario.
type verdict int

const (
	// identical: every Karpenter run is among the emulation's outcomes.
	identical verdict = iota
	// ruledOut: some Karpenter run is proven out of the emulation's reach (no tie-break gives
	// it, or the emulation met no tie): a rule differs.
	ruledOut
	// undecided: some Karpenter run was neither found nor ruled out within the search's budget.
	undecided
)

// scenarioFigures is one scenario's figures.
type scenarioFigures struct {
	name    string
	verdict verdict
	runs    []runFigures
	// seeded: the scenario is of a seeded corpus, where the gate judges the shown range.
	seeded bool
	// exhaustive: the shown range is a bound (shownFigures.exhaustive).
	exhaustive bool
}

// allInRange reports whether every Karpenter run's cost lies inside the shown range.
func (s scenarioFigures) allInRange() bool {
	for _, r := range s.runs {
		if !r.inRange {
			return false
		}
	}
	return true
}

// outsideSearch reports whether a Karpenter run of a seeded scenario lies outside a shown
// range that is not exhaustive: the outcomes the product's search found missed one.
func (s scenarioFigures) outsideSearch() bool {
	return s.seeded && !s.exhaustive && !s.allInRange()
}

// gateFailure says why the scenario fails the gate on its own, "" when it passes: a rule
// differs, or (seeded corpus) a Karpenter run lies outside a shown range that is exhaustive.
// An exhaustive range holds every outcome of the emulation's rules, so a run outside it is
// one the rules cannot give. A range that is not exhaustive holds the outcomes the walk, the
// sample and the cost-directed search found. Karpenter's runs are not seeded (Go map order),
// so one of them may land outside it by chance: that is judged over the corpus
// (userTally.searchFailure), not per scenario.
func (s scenarioFigures) gateFailure() string {
	switch {
	case s.verdict == ruledOut:
		return "a Karpenter run is proven out of the emulation's reach (a rule differs)"
	case s.seeded && s.exhaustive && !s.allInRange():
		return "a Karpenter run's cost lies outside the shown hourly_cost_range, which is exhaustive (a rule differs)"
	}
	return ""
}

// searchMissFloor is the share of a corpus' seeded scenarios whose non-exhaustive range may
// miss a Karpenter run before the gate fails. Before the cost-directed search, misses were
// about 1 in 200 scenarios, each a run the sample had not drawn; the gate then failed at
// random. More than 1 in 100 (and at least 1) means the search no longer finds the extremes:
// a broken search or sample, not chance.
const searchMissFloor = 100

// searchFailure is the corpus' gate on the non-exhaustive ranges, "" when it passes.
func (t *userTally) searchFailure() string {
	if allowed := max(1, t.seeded/searchMissFloor); t.outsideSearch > allowed {
		return fmt.Sprintf("%d of %d seeded scenarios have a Karpenter run outside a non-exhaustive hourly_cost_range (at most %d allowed: 1 in %d)",
			t.outsideSearch, t.seeded, allowed, searchMissFloor)
	}
	return ""
}

// userTally is the user's and the rules' figures over many scenarios.
type userTally struct {
	scenarios, identical, ruledOut, undecided, inRange int
	runs, shownEqual                                   int
	// seeded counts the seeded scenarios, outsideSearch those with a run outside a shown range
	// that is not exhaustive (scenarioFigures.outsideSearch).
	seeded, outsideSearch   int
	shownGaps, expectedGaps []float64
	failures                []string
}

func (t *userTally) addScenario(s scenarioFigures) {
	t.scenarios++
	switch s.verdict {
	case identical:
		t.identical++
	case ruledOut:
		t.ruledOut++
	case undecided:
		t.undecided++
	}
	if s.allInRange() {
		t.inRange++
	}
	if s.seeded {
		t.seeded++
	}
	if s.outsideSearch() {
		t.outsideSearch++
	}
	for _, r := range s.runs {
		t.runs++
		if r.shownEqual {
			t.shownEqual++
		}
		t.shownGaps = append(t.shownGaps, r.shownGap)
		t.expectedGaps = append(t.expectedGaps, r.expectedGap)
	}
	if f := s.gateFailure(); f != "" {
		t.failures = append(t.failures, s.name+": "+f)
	}
}

func (t *userTally) add(o userTally) {
	t.scenarios += o.scenarios
	t.identical += o.identical
	t.ruledOut += o.ruledOut
	t.undecided += o.undecided
	t.inRange += o.inRange
	t.seeded += o.seeded
	t.outsideSearch += o.outsideSearch
	t.runs += o.runs
	t.shownEqual += o.shownEqual
	t.shownGaps = append(t.shownGaps, o.shownGaps...)
	t.expectedGaps = append(t.expectedGaps, o.expectedGaps...)
	t.failures = append(t.failures, o.failures...)
}

// summary is the closing line: `prediction<label>: N of M scenarios identical (rules); the
// shown prediction equals Karpenter's run in K of R runs; shown cost within X % of Karpenter's
// runs at p95 (max Y %); every run inside the shown range in Z of M scenarios (W with a run
// outside a range that is not exhaustive)<note>`.
func (t *userTally) summary(label, note string) string {
	return fmt.Sprintf("prediction%s: %d of %d scenarios identical (rules); the shown prediction equals Karpenter's run in %d of %d runs; "+
		"shown cost within %.2f %% of Karpenter's runs at p95 (max %.2f %%); every run inside the shown range in %d of %d scenarios "+
		"(%d with a run outside a range that is not exhaustive)%s",
		label, t.identical, t.scenarios, t.shownEqual, t.runs, percentile(t.shownGaps, 95), percentile(t.shownGaps, 100), t.inRange, t.scenarios, t.outsideSearch, note)
}

// distances is the line before the summary: how far Karpenter's runs fall from the shown
// and from the expected cost, and the rules' verdicts other than identical.
func (t *userTally) distances() string {
	return fmt.Sprintf("(Karpenter's runs from the shown cost: p50 %.2f %%, p95 %.2f %%, max %.2f %%; from the expected cost: p50 %.2f %%, p95 %.2f %%, max %.2f %%; "+
		"%d scenarios with a run proven out of the emulation's reach, %d undecided: the guided search ran out of budget)",
		percentile(t.shownGaps, 50), percentile(t.shownGaps, 95), percentile(t.shownGaps, 100),
		percentile(t.expectedGaps, 50), percentile(t.expectedGaps, 95), percentile(t.expectedGaps, 100), t.ruledOut, t.undecided)
}

// percentile is the p-th percentile of xs by the nearest-rank method (p = 100: the maximum);
// 0 for none.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(rank, 1), len(s))-1]
}

// note is the scenario line's account of the user's figures where they are not simply the
// run: the shown prediction differs from some run, or a run lies outside the shown range.
func (s shownFigures) note(sf scenarioFigures) string {
	equal, gap := 0, 0.0
	for _, r := range sf.runs {
		if r.shownEqual {
			equal++
		}
		gap = math.Max(gap, r.shownGap)
	}
	if equal == len(sf.runs) {
		return ""
	}
	out := fmt.Sprintf("; shown prediction = %d of %d runs, shown cost up to %.2f%% off, expected %.4f, range %.4f–%.4f", equal, len(sf.runs), gap, s.expected, s.lo, s.hi)
	if !sf.allInRange() {
		out += " (a run outside it)"
	}
	return out
}
