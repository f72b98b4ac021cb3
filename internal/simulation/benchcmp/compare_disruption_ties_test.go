package benchcmp

import (
	"time"
)

// disruptionTies is the TieBreaker of one emulation run of a disruption case: every tie the
// run meets (provisioning rounds, the disruption controller's orders, its scheduling
// simulations) goes through it in the order met. It follows script, then takes the first
// alternative; it records every tie's arity and choice, for the next run of the search.
type disruptionTies struct {
	script           []int
	arities, choices []int
	// guide, when set, is the run searched for: the run stops where it contradicts it.
	guide *disruptionGuide
	// cut is how many ties had been met when the run went astray of guide (all of them when
	// it ended unlike guide's run); stopped says the run was stopped there.
	cut     int
	stopped bool
}

// Choose implements karpenter.TieBreaker.
func (d *disruptionTies) Choose(n int) int {
	c := 0
	if i := len(d.choices); i < len(d.script) {
		c = min(max(d.script[i], 0), n-1)
	}
	d.arities = append(d.arities, n)
	d.choices = append(d.choices, c)
	return c
}

// astray stops the run here: the ties met so far give a run unlike the guide's.
func (d *disruptionTies) astray() {
	d.cut, d.stopped = len(d.choices), true
}

// disruptionSignature is what two outcomes of a case must share to be the same: the nodes
// before and after the change (zones included), and the disruptions per reason.
func disruptionSignature(o disruptionOutcome) string {
	return nodeKeysString(o.before) + " | " + nodeKeysString(o.after) + " | " + o.reasons()
}

// disruptionReach is what the search of the emulation's other outcomes found for a case.
type disruptionReach struct {
	// found is the emulation's outcome equal to Karpenter's run, nil when none was.
	found *disruptionOutcome
	// outcomes are the distinct outcomes of the runs that ended, the default one first.
	outcomes []disruptionOutcome
	// runs counts the emulation runs, the default one included, and cut those stopped
	// where they went astray; exhaustive says every branch of the tie tree was run or cut.
	runs, cut  int
	exhaustive bool
}

// reachDisruption searches the emulation's tie tree for want (Karpenter's run), depth first,
// at most limit runs in all or for budget of wall time. Each run is guided by want
// (disruptionGuide): it stops at the first node launched or removed, or nodes before the
// change, that want's run has not, and only the ties met up to there are varied. So a branch
// is cut as soon as its partial outcome contradicts want, and the deepest tie before that
// point, the likeliest cause, is tried first. When every branch is cut or run without giving
// want, no tie-break of the emulation's follows Karpenter's run: a rule differs. first is
// the default run, with tb its recorded ties. The search is deterministic: the same case,
// want and limit run the same runs, unless the wall time ends it first.
func reachDisruption(c disruptionCase, first disruptionOutcome, tb *disruptionTies, want disruptionOutcome, limit int, budget time.Duration) (disruptionReach, error) {
	start := time.Now()
	r := disruptionReach{outcomes: []disruptionOutcome{first}, runs: 1}
	if len(tb.arities) == 0 {
		r.exhaustive = !first.unwalkedTies
		return r, nil
	}
	seen := map[string]bool{disruptionSignature(first): true}
	g := newDisruptionGuide(want)
	// The default run again, guided, to find where it went astray.
	last := &disruptionTies{script: tb.choices, guide: g}
	for {
		if r.runs >= limit || time.Since(start) > budget {
			return r, nil
		}
		o, err := emulatedDisruptionWith(c, last)
		if err != nil {
			return r, err
		}
		r.runs++
		if last.stopped {
			r.cut++
		} else {
			if s := disruptionSignature(o); !seen[s] {
				seen[s] = true
				r.outcomes = append(r.outcomes, o)
			}
			if sameOutcome(o, want) {
				r.found = &o
				return r, nil
			}
			last.cut = len(last.choices)
		}
		// The deepest tie before the cut with an alternative left; those after it start over.
		i := last.cut - 1
		for i >= 0 && last.choices[i]+1 >= last.arities[i] {
			i--
		}
		if i < 0 {
			r.exhaustive = !first.unwalkedTies
			return r, nil
		}
		last = &disruptionTies{script: append(append([]int(nil), last.choices[:i]...), last.choices[i]+1), guide: g}
	}
}
