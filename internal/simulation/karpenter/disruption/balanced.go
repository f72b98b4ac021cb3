package disruption

import (
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// NodePoolTotals are a pool's cost and disruption cost summed (balanced.go NodePoolTotals).
type NodePoolTotals struct {
	TotalCost           float64
	TotalDisruptionCost float64
}

// computeNodePoolTotals is computeNodePoolTotals: per pool with a candidate, the cost the
// cluster-cost tracker holds (pkg/state/cost: the offering price of every NodeClaim of the
// pool), else the candidates' prices (upstream's fallback), and the disruption cost of every
// node of the pool, a candidate's RescheduleDisruptionCost or else 1 plus its pods' eviction
// costs (StateNode.DisruptionCost).
func computeNodePoolTotals(all []*Candidate, nodes []*Node, s *snapshot) map[string]NodePoolTotals {
	byName := map[string]*Candidate{}
	cost := map[string]float64{}
	for _, c := range all {
		byName[c.Name] = c
		cost[c.NodePool.Name] += c.Price
	}
	disruption, tracked := map[string]float64{}, map[string]float64{}
	for _, n := range nodes {
		pool, ok := n.Labels[karpv1.NodePoolLabelKey]
		if !ok {
			continue
		}
		if n.NodeClaim != nil {
			tracked[pool] += resolveNodePrice(n, s.instanceTypes[pool][n.Labels[corev1.LabelInstanceTypeStable]])
		}
		if c, found := byName[n.Name]; found {
			disruption[pool] += c.RescheduleDisruptionCost
		} else {
			disruption[pool] += computeRescheduleDisruptionCost(s, n.Pods)
		}
	}
	out := make(map[string]NodePoolTotals, len(cost))
	for pool, c := range cost {
		if t := tracked[pool]; t > 0 {
			c = t
		}
		out[pool] = NodePoolTotals{TotalCost: c, TotalDisruptionCost: disruption[pool]}
	}
	return out
}

// ScoreMove is ScoreMove: approved when (savings/total cost) / (disruption/total disruption)
// is at least 1/k.
func ScoreMove(savings, disruptionCost float64, totals NodePoolTotals, k int32) ScoreResult {
	if totals.TotalCost <= 0 || totals.TotalDisruptionCost <= 0 {
		return ScoreResult{K: k}
	}
	return ScoreResult{SavingsFraction: savings / totals.TotalCost, DisruptionFraction: disruptionCost / totals.TotalDisruptionCost, K: k}
}

// EvaluateBalancedMove is EvaluateBalancedMove: every Balanced pool of the move scores its
// share of the savings; the move is approved when all of them approve.
func EvaluateBalancedMove(cmd Command, totals map[string]NodePoolTotals) (bool, map[string]ScoreResult) {
	if len(cmd.Candidates) == 0 {
		return false, nil
	}
	byPool := map[string][]*Candidate{}
	var order []string
	for _, c := range cmd.Candidates {
		if _, ok := byPool[c.NodePool.Name]; !ok {
			order = append(order, c.NodePool.Name)
		}
		byPool[c.NodePool.Name] = append(byPool[c.NodePool.Name], c)
	}
	savings := cmd.EstimatedSavings()
	approved := true
	perPool := map[string]ScoreResult{}
	for _, pool := range order {
		cands := byPool[pool]
		if !cands[0].NodePool.Spec.Disruption.ConsolidationPolicy.IsBalanced() {
			continue
		}
		poolSavings := savings
		if total := cmd.SourceCost(); total > 0 && len(byPool) > 1 {
			poolSavings = savings * (sumCandidatePrices(cands) / total)
		}
		r := ScoreMove(poolSavings, cmd.PoolDisruptionCost(pool), totals[pool], karpv1.BalancedK)
		perPool[pool] = r
		approved = approved && r.Approved()
	}
	return approved, perPool
}

func sumCandidatePrices(cands []*Candidate) float64 {
	var sum float64
	for _, c := range cands {
		sum += c.Price
	}
	return sum
}

// evaluator is the Balanced policy's evaluator (balancedEvaluator); with no totals it
// approves every move (noopEvaluator).
type evaluator struct {
	totals map[string]NodePoolTotals
}

// approveCommand is ApproveCommand.
func (e evaluator) approveCommand(cmd Command) (bool, map[string]ScoreResult) {
	if e.totals == nil {
		return true, nil
	}
	return EvaluateBalancedMove(cmd, e.totals)
}

// canPassThreshold is CanPassThreshold: whether deleting the candidate outright (the best
// move it has) would be approved.
func (e evaluator) canPassThreshold(c *Candidate) bool {
	if e.totals == nil || !c.NodePool.Spec.Disruption.ConsolidationPolicy.IsBalanced() {
		return true
	}
	t, ok := e.totals[c.NodePool.Name]
	if !ok || t.TotalCost <= 0 {
		return true
	}
	return ScoreMove(c.Price, c.RescheduleDisruptionCost, t, karpv1.BalancedK).Approved()
}
