package karpenter

// Enumerate walks every combination of the round's tie-breaks that can give a distinct round.
// It walks depth-first, as Reach does, but with no outcome to follow. A try that fails leaves
// the round as it was. So once a try has failed under one choice of its ties, every other
// choice that also fails it repeats a round already walked. That round is stopped at its
// next binding (see replayTies). What is left are the choices that bind a pod somewhere else,
// in another zone, or not at all. They are far fewer than the product of every tie's
// alternatives, which Outcomes' odometer walks. A pod tried on ten in-flight NodeClaims
// before it fits one meets a tie at each, and all but the last fail alike.
//
// budget bounds the walk by pod placements; a round stopped early costs the placements it
// made. Exhaustive is set when the walk ended within the budget. Results are then every
// outcome the rules can give, distinct by key, Solve's first. Otherwise the set holds the
// outcomes walked so far. They are a corner of the space next to the first round's choices,
// not a sample of it, so Predict then adds a random sample and a cost-directed search
// (Extremes).
func Enumerate(in Input, first *Result, budget int, key func(*Result) string) (OutcomeSet, error) {
	return enumerate(in, first, budget, key, false)
}

// EnumerateModuloZones is Enumerate for a key that does not tell zones apart: it ignores the
// zones NodeClaims are pinned to and launched in. At a tie among zones the round cannot tell
// apart (symmetry.go), one of them is walked. The others give the same outcomes up to zone
// names. When Exhaustive, Results then hold every distinct key the rules can give, as
// Enumerate's do, in fewer rounds.
func EnumerateModuloZones(in Input, first *Result, budget int, key func(*Result) string) (OutcomeSet, error) {
	return enumerate(in, first, budget, key, true)
}

func enumerate(in Input, first *Result, budget int, key func(*Result) string, zonesAlike bool) (OutcomeSet, error) {
	set := OutcomeSet{Results: []*Result{first}, Runs: 1}
	if len(first.tieArities) == 0 {
		set.Exhaustive = true
		return set, nil
	}
	rd := first.round
	if rd == nil {
		var err error
		if rd, err = prepare(in); err != nil {
			return OutcomeSet{}, err
		}
	}
	seen := map[string]bool{key(first): true}
	failed := map[int][]int{}
	var script []int
	for spent := 0; ; {
		rt := &replayTies{script: script, failed: failed, zonesAlike: zonesAlike}
		res, done := rd.runUntil(rt)
		if script != nil { // the walk's first round is Solve's again: counted once
			set.Runs++
		}
		spent += rt.bound + 1
		if done && !rt.repeat {
			if k := key(res); !seen[k] {
				seen[k] = true
				set.Results = append(set.Results, res)
			}
		}
		rt.judge(-1)
		i := len(rt.ranks) - 1
		for i >= 0 && rt.ranks[i]+1 >= rt.arities[i] {
			i--
		}
		if i < 0 {
			set.Exhaustive = true
			return set, nil
		}
		if spent >= budget {
			return set, nil
		}
		script = append(append([]int{}, rt.ranks[:i]...), rt.ranks[i]+1)
		for f := range failed {
			if f > i {
				delete(failed, f)
			}
		}
	}
}
