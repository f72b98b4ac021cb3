package disruption

import (
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// emptiness deletes empty candidates (emptiness.go Emptiness).
type emptiness struct{ *consolidation }

// shouldDisrupt is Emptiness.ShouldDisrupt: not static, consolidation enabled, empty, and
// Consolidatable.
func (e *emptiness) shouldDisrupt(_ *snapshot, c *Candidate) (bool, *BlockedError) {
	if c.OwnedByStaticNodePool() {
		return false, nil
	}
	if c.NodePool.Spec.Disruption.ConsolidateAfter.Duration == nil {
		return false, blocked(BlockedPolicy, "NodePool %q has consolidation disabled", c.NodePool.Name)
	}
	if !c.IsEmpty() {
		return false, nil
	}
	if !c.NodeClaim.StatusConditions().IsTrue(karpv1.ConditionTypeConsolidatable) {
		return false, blocked(BlockedConsolidateAfter, "consolidateAfter has not passed since the node became empty")
	}
	return true, nil
}

// computeCommands is Emptiness.ComputeCommands: every empty candidate, by savings ratio, as
// far as its pool's budget allows, in one command validated after the TTL.
func (e *emptiness) computeCommands(s *snapshot, budgets map[string]int, cands []*Candidate) ([]Command, map[string]*BlockedError, error) {
	why := map[string]*BlockedError{}
	var empty []*Candidate
	sorted := sortCandidates(cands)
	var empties []*Candidate
	for _, c := range sorted {
		if c.IsEmpty() {
			empties = append(empties, c)
		}
	}
	if overBudget(empties, budgets) {
		s.shuffleEqualRuns(sorted, sameSavingsRatio)
	}
	for _, c := range sorted {
		if !c.IsEmpty() {
			continue
		}
		if budgets[c.NodePool.Name] == 0 {
			why[c.Name] = blocked(BlockedBudget, "NodePool %q allows no %s disruption now", c.NodePool.Name, e.reason())
			continue
		}
		empty = append(empty, c)
		budgets[c.NodePool.Name]--
	}
	if len(empty) == 0 {
		return nil, why, nil
	}
	cmd, ok := validateEmptiness(s, e, Command{Candidates: empty})
	if !ok {
		return nil, why, nil
	}
	return []Command{cmd}, why, nil
}

func (e *emptiness) reason() karpv1.DisruptionReason { return karpv1.DisruptionReasonEmpty }
func (e *emptiness) class() string                   { return GracefulDisruptionClass }
func (e *emptiness) name() string                    { return MethodEmpty }
