package disruption

// Where upstream's disruption controller takes nodes in an order Go leaves to chance, the
// emulation meets the same choice at the same step. It resolves the choice with the cluster's
// Input.TieBreaks (the breaker that resolves the scheduler's ties) and counts it in
// Cluster.Ties. Index 0 of every choice keeps the emulation's own order, so a nil breaker gives
// the emulation's outcome. The orders upstream leaves to chance:
//
//   - GetCandidatesWithTotals lists the candidates from state.Cluster's map of nodes
//     (DeepCopyNodes: lo.Values), and sortCandidates' sort.Slice is not stable: candidates of
//     equal savings ratio come in any order (emptiness, multi-node and single-node
//     consolidation);
//   - Drift's sort.Slice on the Drifted condition's transition time: candidates that drifted
//     at the same time come in any order;
//   - SingleNodeConsolidation.shuffleCandidates takes the pools in map order (lo.Keys);
//   - StaticDrift replaces the first candidates of a pool, in GetCandidates' order, as far
//     as its budget allows;
//   - EmptinessValidator keeps the candidates, in GetCandidates' order, as far as the
//     budgets at validation time allow;
//   - the nodes' names are random, and the scheduler tries existing nodes in name order
//     (Cluster.newName: where a new node comes among the others).
//
// A choice is counted only where it can change which nodes are disrupted: emptiness,
// static drift and the emptiness validation count none while every candidate fits its
// pool's budget, and the first node of an empty cluster has no name order to choose. The scheduling simulations' own ties (package karpenter) are counted too.

// choose resolves a choice among n > 1 alternatives and counts it (no choice when n < 2).
func (s *snapshot) choose(n int) int { return s.cluster.choose(n) }

// choose is snapshot.choose on the cluster.
func (c *Cluster) choose(n int) int {
	if n < 2 {
		return 0
	}
	c.Ties++
	tb := c.Input.TieBreaks
	if tb == nil {
		return 0
	}
	if c := tb.Choose(n); c > 0 && c < n {
		return c
	}
	return 0
}

// shuffle orders k interchangeable elements: element i is chosen among those from i on
// (Fisher-Yates, front first), so choice 0 everywhere keeps the order.
func (s *snapshot) shuffle(k int, swap func(i, j int)) {
	for i := 0; i < k-1; i++ {
		if j := i + s.choose(k-i); j != i {
			swap(i, j)
		}
	}
}

// shuffleCandidates shuffles the candidates.
func (s *snapshot) shuffleCandidates(cands []*Candidate) {
	s.shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
}

// shuffleEqualRuns shuffles every run of consecutive candidates that equal says are equal
// (an unstable sort's ties, on a list in map order).
func (s *snapshot) shuffleEqualRuns(cands []*Candidate, equal func(a, b *Candidate) bool) {
	for i := 0; i < len(cands); {
		j := i + 1
		for j < len(cands) && equal(cands[i], cands[j]) {
			j++
		}
		s.shuffleCandidates(cands[i:j])
		i = j
	}
}

// overBudget reports whether some pool has more of the candidates than its budget allows (and
// allows some): only then does their order decide which are disrupted.
func overBudget(cands []*Candidate, budgets map[string]int) bool {
	count := map[string]int{}
	for _, c := range cands {
		pool := c.NodePool.Name
		if count[pool]++; budgets[pool] > 0 && count[pool] > budgets[pool] {
			return true
		}
	}
	return false
}

// sameSavingsRatio is sortCandidates' equality.
func sameSavingsRatio(a, b *Candidate) bool { return a.SavingsRatio() == b.SavingsRatio() }
