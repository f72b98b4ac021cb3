package karpenter

import (
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// Outcomes samples Karpenter's random tie-breaks; Reach answers the exact question a
// fidelity check asks of one outcome Karpenter produced: can the emulation's rules, with some
// choice at each of the ties it meets, produce that outcome? It searches the tie-breaks
// depth-first, guided by the outcome (at a tie for a pod on the NodeClaim the outcome binds it
// to, the domains that NodeClaim ends in come first) and pruned by it: a round stops at the
// first binding the outcome does not have (a pod on another NodeClaim than the outcome's, or
// on one whose pool, zones or instance-type options can no longer become the outcome's). A
// pod once bound stays bound, so no later choice can repair such a binding, and only the
// choices made before it need revisiting: the search is exhaustive within its budget, not a
// sample. The target is followed pod by pod (each pod on the same NodeClaim, in the same
// order), which is stricter than match may be: a round found is the target; Exhaustive says no
// round binds the pods as the target does.

// Target is one outcome to reproduce, by creation order (Karpenter's NodeClaims are numbered
// as they are created, hostname-placeholder-NNNN; the emulation creates its own in the same
// order when it makes the same choices).
type Target struct {
	// Claim is, per pod UID, the rank in creation order of the NodeClaim the pod is bound to
	// (0 = the first created); a pod not in it stays pending.
	Claim map[types.UID]int
	// Claims are the NodeClaims in creation order.
	Claims []TargetClaim
}

// TargetClaim is what one NodeClaim of the target became.
type TargetClaim struct {
	NodePool string
	// Zones are the zones its final requirements allow (the values of an In requirement on the
	// zone key); empty: it has no such requirement, it was never pinned to zones (requirements
	// only narrow), so a NodeClaim pinned to some cannot become it.
	Zones []string
	// InstanceType is the size launched for it ("" when none or unknown).
	InstanceType string
	// Pods are its pods in the order they were bound (nil: not checked).
	Pods []types.UID
}

// Reached is what Reach found.
type Reached struct {
	// Result is a round that matched the target; nil when none was found.
	Result *Result
	// Runs is how many rounds were solved (stopped ones included).
	Runs int
	// Exhaustive is true when the search ended without a match and without running out of
	// runs: no combination of tie-breaks gives the target.
	Exhaustive bool
}

// Reach searches the emulation's tie-breaks for a round whose outcome is the target, in at
// most limit rounds and, when deadline is not zero, until then; match decides whether a
// finished round is the target (the bindings checked on the way are necessary, not
// sufficient: sizes, pending pods and the rest are match's). first is the round's Solve
// result (its prepared round is reused).
func Reach(in Input, first *Result, target Target, limit int, deadline time.Time, match func(*Result) bool) (Reached, error) {
	rd := first.round
	if rd == nil {
		var err error
		if rd, err = prepare(in); err != nil {
			return Reached{}, err
		}
	}
	var script []int
	// failed holds, by the index of its first tie, the tries (with the ties before them as
	// they are now) already seen to fail: see replayTies.
	failed := map[int][]int{}
	for runs := 1; runs <= limit; runs++ {
		if runs > 1 && !deadline.IsZero() && time.Now().After(deadline) {
			return Reached{Runs: runs - 1}, nil
		}
		rt := &replayTies{target: &target, script: script, failed: failed}
		res, done := rd.runUntil(rt)
		if done && !rt.repeat && match(res) {
			return Reached{Result: res, Runs: runs}, nil
		}
		rt.judge(-1)
		// Every tie met so far came before the round went astray: advance the last one
		// with an alternative left that can change the round, keep the ones before it.
		i := len(rt.ranks) - 1
		for i >= 0 && (rt.ranks[i]+1 >= rt.arities[i] || rt.dead[i]) {
			i--
		}
		if i < 0 {
			return Reached{Runs: runs, Exhaustive: true}, nil
		}
		script = append(slices.Clip(rt.ranks[:i]), rt.ranks[i]+1)
		for f := range failed {
			if f > i { // the ties before that try change: it is another try
				delete(failed, f)
			}
		}
	}
	return Reached{Runs: limit}, nil
}

// replayTies is the TieBreaker of one round of Reach (and, without a target, of Enumerate): it
// follows script (the rank, in its order of preference, of the alternative to take at each
// tie), then takes its first preference; it records every tie's rank and arity, and stops the
// round at the first binding the target does not have.
//
// Two kinds of ties are not revisited, as their other alternatives cannot give a round not
// searched already. A failed try leaves nothing behind (the same NodeClaims, counts and
// queue), so every choice at its ties that fails it too gives the same round from there on.
//
//   - A tie met while the pod is tried on a NodeClaim the target does not bind it to, in a
//     try that fails, is dead: its other alternatives either make that try succeed, binding
//     the pod where the target does not (the round stops there), or fail it too.
//   - A try on the NodeClaim the target binds the pod to may fail under some choices and
//     succeed under others; once it has failed, the search goes on from that failure (the
//     rest of the round's ties, depth-first). When the search comes back to that try's own
//     ties and another choice fails it again, the round from there on is one already
//     searched: it is stopped (at the next binding) and cut at the end of that try.
//
// Without them the search enumerates every combination of equivalent choices at the failed
// tries before it gets to a choice that matters: u36-zones-eastus meets ~300 ties a round,
// nearly all in failed tries (24 StatefulSet pods whose ScheduleAnyway zone spread fails
// in every zone before it is relaxed), and never got past them in 2,000 rounds.
type replayTies struct {
	target         *Target
	script         []int
	ranks, arities []int
	// tries and aimed are each tie's try number and whether that try was of the pod on the
	// NodeClaim the target binds it to (or of no pod: the daemon groups' order); dead marks
	// the ties that cannot change the round (see above), judged up to judged.
	tries  []int
	aimed  []bool
	dead   []bool
	judged int
	// failed is Reach's record of failed tries by their first tie, with the choices at their
	// ties that failed them; repeat says this round failed one of them with other choices
	// (its ties end with that try's).
	failed map[int][]int
	repeat bool
	bound  int
	// zonesAlike: outcomes are compared without zone names (EnumerateModuloZones).
	zonesAlike bool
}

func (r *replayTies) moduloZones() bool { return r.zonesAlike }

func (r *replayTies) next(n, try int, aimed bool) int {
	k := 0
	if i := len(r.ranks); i < len(r.script) {
		k = r.script[i]
	}
	if k >= n {
		k = 0
	}
	r.ranks = append(r.ranks, k)
	r.arities = append(r.arities, n)
	r.tries = append(r.tries, try)
	r.aimed = append(r.aimed, aimed)
	r.dead = append(r.dead, false)
	return k
}

// judge looks at the ties not judged yet that were met in tries other than bound (the try
// that bound a pod; -1: none, the round is over): those tries failed. Ties of a failed try
// on a NodeClaim the target does not bind the pod to are dead; a failed try on the one it
// binds it to is recorded in failed, and when it is there already with other choices the
// round repeats one searched before: repeat is set and the ties after that try are cut.
func (r *replayTies) judge(bound int) {
	for i := r.judged; i < len(r.ranks); {
		j := i + 1
		for j < len(r.ranks) && r.tries[j] == r.tries[i] {
			j++
		}
		if r.tries[i] != bound && r.tries[i] != 0 {
			for k := i; k < j; k++ {
				r.dead[k] = !r.aimed[k]
			}
			if r.aimed[i] {
				if seen, ok := r.failed[i]; ok && !slices.Equal(seen, r.ranks[i:j]) {
					r.repeat = true
					r.ranks, r.arities, r.tries, r.aimed, r.dead = r.ranks[:j], r.arities[:j], r.tries[:j], r.aimed[:j], r.dead[:j]
					r.judged = j
					return
				}
				r.failed[i] = slices.Clone(r.ranks[i:j])
			}
		}
		i = j
	}
	r.judged = len(r.ranks)
}

// Choose implements TieBreaker (ties without domains: the order of daemon groups).
func (r *replayTies) Choose(n int) int { return r.next(n, 0, true) }

// chooseDomain orders the domains: when the pod is tried on the NodeClaim the target binds it
// to, the domains that NodeClaim ends in come first (in name order), then the others.
func (r *replayTies) chooseDomain(p *corev1.Pod, claim, try int, key string, domains []string) int {
	if r.target == nil { // Enumerate: no outcome to follow, every try may matter
		return r.next(len(domains), try, true)
	}
	order := make([]int, 0, len(domains))
	aimed := p == nil
	if p != nil {
		c, ok := r.target.Claim[p.UID]
		aimed = ok && c == claim
	}
	if key == corev1.LabelTopologyZone && p != nil {
		if c, ok := r.target.Claim[p.UID]; ok && c == claim && c < len(r.target.Claims) && len(r.target.Claims[c].Zones) > 0 {
			for i, d := range domains {
				if slices.Contains(r.target.Claims[c].Zones, d) {
					order = append(order, i)
				}
			}
		}
	}
	for i := range domains {
		if !slices.Contains(order, i) {
			order = append(order, i)
		}
	}
	return order[r.next(len(domains), try, aimed)]
}

// placed checks a binding against the target: the NodeClaim must be the pod's in the target,
// from the same pool, still able to end in the target's zones and to launch its size
// (requirements and options only narrow as pods are added).
func (r *replayTies) placed(p *corev1.Pod, n *nodeClaim, try int) bool {
	if r.judge(try); r.repeat {
		return false
	}
	if r.target == nil {
		r.bound++
		return true
	}
	c, ok := r.target.Claim[p.UID]
	if !ok || c != n.seq || c >= len(r.target.Claims) {
		return false
	}
	tc := r.target.Claims[c]
	if tc.NodePool != n.template.nodePool.Name {
		return false
	}
	if k := len(n.pods) - 1; tc.Pods != nil && (k >= len(tc.Pods) || tc.Pods[k] != p.UID) {
		return false // bound in another order: the queue went another way
	}
	if len(tc.Zones) == 0 && n.requirements.Has(corev1.LabelTopologyZone) && n.requirements.Get(corev1.LabelTopologyZone).Operator() == corev1.NodeSelectorOpIn {
		return false // pinned to zones where the target's NodeClaim never was
	}
	if len(tc.Zones) > 0 && n.requirements.Has(corev1.LabelTopologyZone) {
		zones := n.requirements.Get(corev1.LabelTopologyZone)
		for _, z := range tc.Zones {
			if !zones.Has(z) {
				return false
			}
		}
	}
	if tc.InstanceType != "" && !slices.ContainsFunc(n.instanceTypeOptions, func(it *cloudprovider.InstanceType) bool { return it.Name == tc.InstanceType }) {
		return false
	}
	r.bound++
	return true
}
