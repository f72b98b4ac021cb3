package disruption

import (
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// validateEmptiness is EmptinessValidator.Validate: after the TTL, the candidates that are
// still candidates of the method, within their pools' budgets at that time; false when none
// is left.
func validateEmptiness(s *snapshot, m method, cmd Command) (Command, bool) {
	later := newSnapshot(s.cluster, s.opts, s.clock.Now().Add(commandValidationDelay))
	current, _, _ := getCandidates(later, m)
	valid := mapCandidates(cmd.Candidates, current)
	budgets := buildDisruptionBudgetMapping(later, m.reason())
	if overBudget(valid, budgets) {
		// Upstream keeps them in GetCandidates' map order (ties.go).
		later.shuffleCandidates(valid)
	}
	var kept []*Candidate
	for _, c := range valid {
		if budgets[c.NodePool.Name] == 0 {
			continue
		}
		budgets[c.NodePool.Name]--
		kept = append(kept, c)
	}
	if len(kept) == 0 {
		return Command{}, false
	}
	cmd.Candidates, cmd.At = kept, later.clock.Now()
	return cmd, true
}

// validateConsolidation is ConsolidationValidator.Validate: after the TTL every candidate is
// still one, within the budgets, and the scheduling simulation still gives the command: a
// delete needs no new NodeClaim, a replace at most one, whose options are among the
// command's.
func validateConsolidation(s *snapshot, m method, cmd Command) (Command, bool) {
	later := newSnapshot(s.cluster, s.opts, s.clock.Now().Add(commandValidationDelay))
	current, _, _ := getCandidates(later, m)
	valid := mapCandidates(cmd.Candidates, current)
	if len(valid) != len(cmd.Candidates) {
		return Command{}, false
	}
	budgets := buildDisruptionBudgetMapping(later, m.reason())
	for _, c := range valid {
		if budgets[c.NodePool.Name] == 0 {
			return Command{}, false
		}
		budgets[c.NodePool.Name]--
	}
	res, moving, err := simulateScheduling(later, true, valid...)
	if err != nil || !allNonPendingPodsScheduled(res, moving) {
		return Command{}, false
	}
	if !commandStillValid(cmd, res) {
		return Command{}, false
	}
	cmd.At = later.clock.Now()
	return cmd, true
}

// commandStillValid is validateCommand's comparison of the new simulation with the command.
func commandStillValid(cmd Command, res *karpenter.Result) bool {
	switch {
	case len(res.NodeClaims) == 0:
		return true
	case len(cmd.Replacements) == 0, len(res.NodeClaims) > 1:
		return false
	}
	return instanceTypesAreSubset(cmd.Replacements[0].InstanceTypeOptions, res.NodeClaims[0].InstanceTypeOptions)
}

// instanceTypesAreSubset is instanceTypesAreSubset: every name of lhs is in rhs.
func instanceTypesAreSubset[T interface{ ~[]E }, E interface{ comparable }](lhs, rhs T) bool {
	in := map[E]bool{}
	for _, it := range rhs {
		in[it] = true
	}
	for _, it := range lhs {
		if !in[it] {
			return false
		}
	}
	return true
}
