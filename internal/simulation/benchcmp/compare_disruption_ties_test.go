package benchcmp

import (
	"math/rand/v2"
	"strings"
	"time"
)

// disruptionTies is the TieBreaker of one emulation run of a disruption case: every tie the
// run meets (provisioning rounds, the disruption controller's orders, its scheduling
// simulations) goes through it in the order met. It follows script, then takes the first
// alternative, or a seeded random one when rng is set; it records every tie's arity and
// choice, for the next run of the odometer.
type disruptionTies struct {
	script           []int
	rng              *rand.Rand
	arities, choices []int
}

// Choose implements karpenter.TieBreaker.
func (d *disruptionTies) Choose(n int) int {
	c := 0
	switch i := len(d.choices); {
	case i < len(d.script):
		c = min(max(d.script[i], 0), n-1)
	case d.rng != nil:
		c = d.rng.IntN(n)
	}
	d.arities = append(d.arities, n)
	d.choices = append(d.choices, c)
	return c
}

// disruptionSignature is what two outcomes of a case must share to be the same: the nodes
// before and after the change (zones included), and the disruptions per reason.
func disruptionSignature(o disruptionOutcome) string {
	return strings.Join([]string{nodeKeysString(o.before), nodeKeysString(o.after), o.reasons()}, " | ")
}

// disruptionReach is what the search of the emulation's other outcomes found for a case.
type disruptionReach struct {
	// found is the emulation's outcome equal to Karpenter's run, nil when none was.
	found *disruptionOutcome
	// outcomes are the distinct outcomes seen, the default one first.
	outcomes []disruptionOutcome
	// runs counts the emulation runs, the default one included; exhaustive says every
	// combination of choices was run.
	runs       int
	exhaustive bool
	// last is the last run's outcome.
	last disruptionOutcome
}

// reachDisruption runs the case with other tie-breaks than the emulation's until one gives
// want (Karpenter's outcome), at most limit runs in all or for budget of wall time: every
// combination of choices (an odometer over the ties, as karpenter.Outcomes walks a round's)
// while the default run's ties allow no more than limit, else seeded random choices, each
// tie's alternatives equally likely, guided by the phases: once a run's nodes before the
// change are Karpenter's, its choices up to the change are kept and only the later ones are
// drawn. first is the default run, with tb its recorded ties.
func reachDisruption(c disruptionCase, first disruptionOutcome, tb *disruptionTies, want disruptionOutcome, limit int, budget time.Duration) (disruptionReach, error) {
	start := time.Now()
	r := disruptionReach{outcomes: []disruptionOutcome{first}, runs: 1}
	target := disruptionSignature(want)
	seen := map[string]bool{disruptionSignature(first): true}
	try := func(next *disruptionTies) (bool, error) {
		o, err := emulatedDisruptionWith(c, next)
		if err != nil {
			return false, err
		}
		r.runs++
		r.last = o
		if s := disruptionSignature(o); !seen[s] {
			seen[s] = true
			r.outcomes = append(r.outcomes, o)
		}
		if disruptionSignature(o) == target {
			r.found = &o
			return true, nil
		}
		return false, nil
	}
	if len(tb.arities) == 0 {
		r.exhaustive = !first.unwalkedTies
		return r, nil
	}
	combos := 1
	for _, a := range tb.arities {
		if combos *= a; combos > limit {
			break
		}
	}
	if combos <= limit {
		last := tb
		for {
			i := len(last.choices) - 1
			for i >= 0 && last.choices[i]+1 >= last.arities[i] {
				i--
			}
			if i < 0 {
				r.exhaustive = !first.unwalkedTies
				return r, nil
			}
			if r.runs >= limit || time.Since(start) > budget {
				return r, nil
			}
			next := &disruptionTies{script: append(append([]int(nil), last.choices[:i]...), last.choices[i]+1)}
			if ok, err := try(next); ok || err != nil {
				return r, err
			}
			last = next
		}
	}
	// prefix are the choices, up to the change, of a run whose nodes before the change are
	// Karpenter's (nil while none is known).
	var prefix []int
	wantBefore := nodeKeysString(want.before)
	if nodeKeysString(first.before) == wantBefore {
		prefix = tb.choices[:first.beforeTies]
	}
	for seed := uint64(1); r.runs < limit && time.Since(start) <= budget; seed++ {
		next := &disruptionTies{script: prefix, rng: rand.New(rand.NewPCG(seed, 0xd15))}
		if ok, err := try(next); ok || err != nil {
			return r, err
		}
		if prefix == nil && nodeKeysString(r.last.before) == wantBefore {
			prefix = next.choices[:r.last.beforeTies]
		}
	}
	return r, nil
}
