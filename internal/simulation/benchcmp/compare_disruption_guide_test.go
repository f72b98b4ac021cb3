package benchcmp

// disruptionGuide is Karpenter's run of a case as the target of reachDisruption: what a
// partial run of the emulation must agree with to be able to end as it did.
type disruptionGuide struct {
	want disruptionOutcome
	// before is want's nodes before the change; launchedBefore and launched bound the nodes
	// a run may launch before the change and in all, by key: every node launched is still
	// there at the end of its phase or was removed (want.before or want.after, plus every
	// node want removed).
	before                   string
	launchedBefore, launched map[string]int
}

func newDisruptionGuide(want disruptionOutcome) *disruptionGuide {
	g := &disruptionGuide{want: want, before: nodeKeysString(want.before), launchedBefore: map[string]int{}, launched: map[string]int{}}
	for _, d := range want.disruptions {
		g.launchedBefore[d.node.String()]++
		g.launched[d.node.String()]++
	}
	for _, k := range want.before {
		g.launchedBefore[k.String()]++
	}
	for _, k := range want.after {
		g.launched[k.String()]++
	}
	return g
}

// follows says whether got, the disruptions of a run so far, can begin want's: want's runs of
// disruptions for the same reason in order, in any order inside a run. The order inside is
// left free because the two sides time some steps apart: Karpenter's expiration controller
// sleeps a second after each deletion, the emulation expires together.
func (g *disruptionGuide) follows(got []disruptionEvent) bool {
	want := g.want.disruptions
	n := len(got)
	if n == 0 {
		return true
	}
	if n > len(want) {
		return false
	}
	// want[s:m] is the run of the n-th disruption: got must hold all of want[:s] and nothing
	// outside want[:m].
	s, m := n-1, n
	for s > 0 && want[s-1].reason == want[n-1].reason {
		s--
	}
	for m < len(want) && want[m].reason == want[n-1].reason {
		m++
	}
	room := map[string]int{}
	for _, d := range want[:m] {
		room[disruptionKey(d)]++
	}
	for _, d := range got {
		if room[disruptionKey(d)]--; room[disruptionKey(d)] < 0 {
			return false
		}
	}
	for _, d := range want[s:m] {
		room[disruptionKey(d)]--
	}
	for _, left := range room {
		if left > 0 {
			return false
		}
	}
	return true
}

// launches says whether a run that launched these nodes (by key, before the change or in
// all) can still end as want.
func (g *disruptionGuide) launches(counts map[string]int, beforeChange bool) bool {
	bound := g.launched
	if beforeChange {
		bound = g.launchedBefore
	}
	for k, n := range counts {
		if n > bound[k] {
			return false
		}
	}
	return true
}

func disruptionKey(d disruptionEvent) string { return d.reason + " " + d.node.String() }
