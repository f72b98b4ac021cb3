package disruption

import (
	"errors"
	"sort"
	"time"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// drift replaces drifted NodeClaims of dynamic pools (drift.go Drift).
type drift struct{}

// shouldDisrupt is Drift.ShouldDisrupt: not static and Drifted.
func (d *drift) shouldDisrupt(_ *snapshot, c *Candidate) (bool, *BlockedError) {
	return !c.OwnedByStaticNodePool() && c.NodeClaim.StatusConditions().IsTrue(karpv1.ConditionTypeDrifted), nil
}

// computeCommands is Drift.ComputeCommands: by the time they drifted, the empty first, the
// first candidate within its pool's budget whose pods all schedule (on the other nodes and
// the NodeClaims the simulation adds) is replaced; no price rule applies.
func (d *drift) computeCommands(s *snapshot, budgets map[string]int, cands []*Candidate) ([]Command, map[string]*BlockedError, error) {
	why := map[string]*BlockedError{}
	sort.SliceStable(cands, func(i, j int) bool {
		return driftedAt(cands[i]).Before(driftedAt(cands[j]))
	})
	// Upstream's sort.Slice is not stable on a list in map order: those that drifted at the
	// same time come in any order (ties.go).
	s.shuffleEqualRuns(cands, func(a, b *Candidate) bool { return driftedAt(a).Equal(driftedAt(b)) })
	var empty, nonEmpty []*Candidate
	for _, c := range cands {
		if len(c.reschedulablePods) == 0 {
			empty = append(empty, c)
		} else {
			nonEmpty = append(nonEmpty, c)
		}
	}
	for _, c := range append(empty, nonEmpty...) {
		if budgets[c.NodePool.Name] == 0 {
			why[c.Name] = blocked(BlockedBudget, "NodePool %q allows no %s disruption now", c.NodePool.Name, d.reason())
			continue
		}
		res, moving, err := simulateScheduling(s, false, c)
		if err != nil {
			if errors.Is(err, errCandidateDeleting) {
				continue
			}
			return nil, why, err
		}
		if !allNonPendingPodsScheduled(res, moving) {
			why[c.Name] = blocked(BlockedPodsDoNotFit, "not all pods would schedule")
			continue
		}
		cmd := Command{Candidates: []*Candidate{c}, Results: res, At: s.clock.Now()}
		for _, nc := range res.NodeClaims {
			cmd.Replacements = append(cmd.Replacements, &Replacement{NodeClaim: copyNodeClaim(nc)})
		}
		return []Command{cmd}, why, nil
	}
	return nil, why, nil
}

// driftedAt is the Drifted condition's last transition.
func driftedAt(c *Candidate) (t time.Time) {
	if cond := c.NodeClaim.StatusConditions().Get(karpv1.ConditionTypeDrifted); cond != nil {
		return cond.LastTransitionTime.Time
	}
	return t
}

func (d *drift) reason() karpv1.DisruptionReason { return karpv1.DisruptionReasonDrifted }
func (d *drift) class() string                   { return EventualDisruptionClass }
func (d *drift) name() string                    { return MethodDrift }
