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
	// Zones are the zones its final requirements allow; empty: any.
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
	for runs := 1; runs <= limit; runs++ {
		if runs > 1 && !deadline.IsZero() && time.Now().After(deadline) {
			return Reached{Runs: runs - 1}, nil
		}
		rt := &replayTies{target: &target, script: script}
		if res, done := rd.runUntil(rt); done && match(res) {
			return Reached{Result: res, Runs: runs}, nil
		}
		// Every tie met so far came before the round went astray: advance the last one
		// with an alternative left, keep the ones before it.
		i := len(rt.ranks) - 1
		for i >= 0 && rt.ranks[i]+1 >= rt.arities[i] {
			i--
		}
		if i < 0 {
			return Reached{Runs: runs, Exhaustive: true}, nil
		}
		script = append(slices.Clip(rt.ranks[:i]), rt.ranks[i]+1)
	}
	return Reached{Runs: limit}, nil
}

// replayTies is the TieBreaker of one round of Reach: it follows script (the rank, in its
// order of preference, of the alternative to take at each tie), then takes its first
// preference; it records every tie's rank and arity, and stops the round at the first binding
// the target does not have.
type replayTies struct {
	target         *Target
	script         []int
	ranks, arities []int
	bound          int
}

func (r *replayTies) next(n int) int {
	k := 0
	if i := len(r.ranks); i < len(r.script) {
		k = r.script[i]
	}
	if k >= n {
		k = 0
	}
	r.ranks = append(r.ranks, k)
	r.arities = append(r.arities, n)
	return k
}

// Choose implements TieBreaker (ties without domains: the order of daemon groups).
func (r *replayTies) Choose(n int) int { return r.next(n) }

// chooseDomain orders the domains: when the pod is tried on the NodeClaim the target binds it
// to, the domains that NodeClaim ends in come first (in name order), then the others.
func (r *replayTies) chooseDomain(p *corev1.Pod, claim int, key string, domains []string) int {
	order := make([]int, 0, len(domains))
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
	return order[r.next(len(domains))]
}

// placed checks a binding against the target: the NodeClaim must be the pod's in the target,
// from the same pool, still able to end in the target's zones and to launch its size
// (requirements and options only narrow as pods are added).
func (r *replayTies) placed(p *corev1.Pod, n *nodeClaim) bool {
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
