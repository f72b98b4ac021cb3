package karpenter

import (
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// Outcomes samples Karpenter's random tie-breaks. Reach answers the exact question a fidelity
// check asks of one outcome Karpenter produced. Can the emulation's rules produce it, with
// some choice at each tie they meet?
//
// Reach searches the tie-breaks depth-first, guided by the outcome. At a tie for a pod on the
// NodeClaim the outcome binds it to, that NodeClaim's final domains come first. The outcome
// also prunes the search. A round stops at the first binding the outcome does not have. That
// is a pod on another NodeClaim, or on one whose pool, zones or options can no longer become
// the outcome's. A bound pod stays bound, so no later choice repairs such a binding. Only the
// choices made before it need revisiting. So the search is exhaustive within its budget, not
// a sample.
//
// The target is followed pod by pod: each pod on the same NodeClaim, in the same order. That
// is stricter than match may be. A round found is the target. Exhaustive says that no round
// binds the pods as the target does.

// Target is one outcome to reproduce, by creation order. Karpenter numbers its NodeClaims as
// it creates them (hostname-placeholder-NNNN). The emulation creates its own in the same
// order when it makes the same choices.
type Target struct {
	// Claim is, per pod UID, the creation rank of the pod's NodeClaim (0 = the first
	// created). A pod not in it stays pending.
	Claim map[types.UID]int
	// Claims are the NodeClaims in creation order.
	Claims []TargetClaim
}

// TargetClaim is what one NodeClaim of the target became.
type TargetClaim struct {
	NodePool string
	// Zones are the zones its final requirements allow: the values of an In requirement on
	// the zone key. Empty means it was never pinned to zones. Requirements only narrow, so a
	// NodeClaim pinned to zones cannot become it.
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

// Reach searches the emulation's tie-breaks for a round whose outcome is the target. It runs
// at most limit rounds, and stops at deadline when that is not zero. match decides whether a
// finished round is the target. The bindings checked on the way are necessary, not
// sufficient: sizes, pending pods and the rest are match's to judge. first is the round's
// Solve result, whose prepared round is reused.
func Reach(in Input, first *Result, target Target, limit int, deadline time.Time, match func(*Result) bool) (Reached, error) {
	rd := first.round
	if rd == nil {
		var err error
		if rd, err = prepare(in); err != nil {
			return Reached{}, err
		}
	}
	var script []int
	// failed holds the tries already seen to fail, by the index of their first tie. A try is
	// the same try only while the ties before it stay as they are (see replayTies).
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
		// Every tie met so far came before the round went astray. Advance the last one that
		// has an alternative left able to change the round. Keep the ones before it.
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

// replayTies is the TieBreaker of one round of Reach, and without a target of Enumerate. At
// each tie it takes the alternative script ranks, in its order of preference. Past the
// script it takes its first preference. It records every tie's rank and arity. It stops the
// round at the first binding the target does not have.
//
// Two kinds of ties are not revisited: their other alternatives give no round not searched
// already. A failed try leaves nothing behind: the same NodeClaims, counts and queue. So
// every choice at its ties that also fails it gives the same round from there on.
//
//   - A tie in a failed try of the pod on a NodeClaim the target does not bind it to is dead.
//     Its other alternatives either fail the try too, or make it succeed. Success binds the
//     pod where the target does not, and the round stops there.
//   - A try on the pod's target NodeClaim may fail under some choices and succeed under
//     others. Once it has failed, the search goes on from that failure, depth-first. Later
//     the search comes back to that try's own ties. If another choice fails it again, the
//     round from there on was searched already. It is stopped at the next binding and cut at
//     the end of that try.
//
// Without these cuts the search walks every combination of equivalent choices at the failed
// tries before it reaches a choice that matters. u36-zones-eastus meets about 300 ties a
// round, nearly all in failed tries. Its 24 StatefulSet pods have a ScheduleAnyway zone
// spread that fails in every zone before it is relaxed. Uncut, 2,000 rounds do not get past
// them.
type replayTies struct {
	target         *Target
	script         []int
	ranks, arities []int
	// tries is each tie's try number. aimed says whether that try was of the pod on its
	// target NodeClaim, or of no pod (the daemon groups' order). dead marks the ties that
	// cannot change the round (see above). Ties are judged up to judged.
	tries  []int
	aimed  []bool
	dead   []bool
	judged int
	// failed is Reach's record of failed tries by their first tie, with the choices that
	// failed them. repeat says this round failed one of them with other choices. Its ties
	// then end with that try's.
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

// judge looks at the ties not judged yet. Those met in tries other than bound failed. bound
// is the try that bound a pod, or -1 when the round is over. Ties of a failed try off the
// pod's target NodeClaim are dead. A failed try on the target NodeClaim is recorded in
// failed. If it is there already with other choices, the round repeats one searched before.
// Then repeat is set and the ties after that try are cut.
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

// chooseDomain orders the domains. When the pod is tried on its target NodeClaim, the
// domains that NodeClaim ends in come first, in name order. The others follow.
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

// placed checks a binding against the target. The NodeClaim must be the pod's in the target,
// from the same pool. It must still be able to end in the target's zones and launch its
// size, since requirements and options only narrow as pods are added.
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
