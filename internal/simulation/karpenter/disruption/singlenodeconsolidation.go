package disruption

import (
	"sort"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// singleNodeConsolidation removes or replaces one node (singlenodeconsolidation.go
// SingleNodeConsolidation).
type singleNodeConsolidation struct{ *consolidation }

// computeCommands is SingleNodeConsolidation.ComputeCommands: the candidates in
// SortCandidates' order, the first within its pool's budget, past the Balanced threshold,
// whose consolidation is a delete or a cheaper replace and which passes validation after the
// TTL. The three-minute timeout (wall clock) is not emulated.
func (sn *singleNodeConsolidation) computeCommands(s *snapshot, budgets map[string]int, cands []*Candidate) ([]Command, map[string]*BlockedError, error) {
	why := map[string]*BlockedError{}
	for _, c := range sortSingle(s, cands) {
		if budgets[c.NodePool.Name] == 0 {
			why[c.Name] = blocked(BlockedBudget, "NodePool %q allows no %s disruption now", c.NodePool.Name, sn.reason())
			continue
		}
		if !sn.evaluator.canPassThreshold(c) {
			why[c.Name] = blocked(BlockedBalanced, "deleting it would not pass the Balanced score's threshold 1/%d", karpv1.BalancedK)
			continue
		}
		cmd, no, err := sn.computeConsolidation(s, c)
		if err != nil {
			return nil, why, err
		}
		if cmd.Decision() == NoOpDecision {
			if no != nil {
				why[c.Name] = no
			}
			continue
		}
		if ok, _ := sn.evaluator.approveCommand(cmd); !ok {
			why[c.Name] = blocked(BlockedBalanced, "the move's Balanced score is below the threshold 1/%d", karpv1.BalancedK)
			continue
		}
		cmd.Method, cmd.Reason = sn.name(), sn.reason()
		valid, ok := validateConsolidation(s, sn, cmd)
		if !ok {
			// Upstream ends the pass on a failed validation.
			return nil, why, nil
		}
		return []Command{valid}, why, nil
	}
	return nil, why, nil
}

// sortSingle is SortCandidates: by savings ratio, then interleaved across pools (the first
// of each pool, then the second, ...). Upstream takes the pools in map order, the ones a
// timeout left unseen first; here they go by name, then as the tie-breaks say (ties.go).
func sortSingle(s *snapshot, cands []*Candidate) []*Candidate {
	cands = sortCandidatesTied(s, cands)
	byPool := map[string][]*Candidate{}
	var pools []string
	most := 0
	for _, c := range cands {
		if _, ok := byPool[c.NodePool.Name]; !ok {
			pools = append(pools, c.NodePool.Name)
		}
		byPool[c.NodePool.Name] = append(byPool[c.NodePool.Name], c)
		most = max(most, len(byPool[c.NodePool.Name]))
	}
	sort.Strings(pools)
	s.shuffle(len(pools), func(i, j int) { pools[i], pools[j] = pools[j], pools[i] })
	out := make([]*Candidate, 0, len(cands))
	for i := range most {
		for _, p := range pools {
			if i < len(byPool[p]) {
				out = append(out, byPool[p][i])
			}
		}
	}
	return out
}

func (sn *singleNodeConsolidation) reason() karpv1.DisruptionReason {
	return karpv1.DisruptionReasonUnderutilized
}
func (sn *singleNodeConsolidation) class() string { return GracefulDisruptionClass }
func (sn *singleNodeConsolidation) name() string  { return MethodSingle }
