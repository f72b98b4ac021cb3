package disruption

import (
	"math"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// MultiNodeConsolidationMaxParallel is how many candidates the binary search spans at most
// (upstream's lo.Clamp(len, 0, 100)).
const MultiNodeConsolidationMaxParallel = 100

// multiNodeConsolidation removes or replaces several nodes at once
// (multinodeconsolidation.go MultiNodeConsolidation).
type multiNodeConsolidation struct{ *consolidation }

// computeCommands is MultiNodeConsolidation.ComputeCommands: the candidates by savings ratio
// within their pools' budgets, the largest prefix (binary search) that consolidates into at
// most one cheaper node, validated after the TTL.
func (m *multiNodeConsolidation) computeCommands(s *snapshot, budgets map[string]int, cands []*Candidate) ([]Command, map[string]*BlockedError, error) {
	why := map[string]*BlockedError{}
	var disruptable []*Candidate
	for _, c := range sortCandidatesTied(s, cands) {
		if budgets[c.NodePool.Name] == 0 {
			why[c.Name] = blocked(BlockedBudget, "NodePool %q allows no %s disruption now", c.NodePool.Name, m.reason())
			continue
		}
		disruptable = append(disruptable, c)
		budgets[c.NodePool.Name]--
	}
	cmd, err := m.firstNConsolidationOption(s, disruptable, min(len(disruptable), MultiNodeConsolidationMaxParallel))
	if err != nil || cmd.Decision() == NoOpDecision {
		return nil, why, err
	}
	cmd, ok := validateConsolidation(s, m, cmd)
	if !ok {
		return nil, why, nil
	}
	return []Command{cmd}, why, nil
}

// firstNConsolidationOption is firstNConsolidationOption: a binary search over the prefix
// length, from 2 candidates up, keeping the last prefix that gives a delete or a replace with
// an instance type other than the candidates' own (filterOutSameInstanceType) that the
// Balanced policy approves. The upstream timeout (one minute of wall clock) is not emulated.
func (m *multiNodeConsolidation) firstNConsolidationOption(s *snapshot, cands []*Candidate, hi int) (Command, error) {
	if len(cands) < 2 {
		return Command{}, nil
	}
	lo := 1
	if len(cands) <= hi {
		hi = len(cands) - 1
	}
	var last Command
	for lo <= hi {
		mid := (lo + hi) / 2
		batch := cands[:mid+1]
		cmd, _, err := m.computeConsolidation(s, batch...)
		if err != nil {
			return Command{}, err
		}
		valid := cmd.Decision() == DeleteDecision
		if cmd.Decision() == ReplaceDecision {
			if filterOutSameInstanceType(cmd.Replacements[0], batch) && len(cmd.Replacements[0].InstanceTypeOptions) > 0 {
				valid = true
			}
		}
		if valid {
			if ok, _ := m.evaluator.approveCommand(cmd); !ok {
				valid = false
			}
		}
		if valid {
			last = cmd
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	if last.Candidates != nil {
		last.Method, last.Reason = m.name(), m.reason()
	}
	return last, nil
}

// filterOutSameInstanceType is filterOutSameInstanceType: a replacement that keeps one of
// the candidates' instance types keeps only options cheaper than that type's cheapest
// compatible offering among the candidates. It reports false when minValues fails.
func filterOutSameInstanceType(r *Replacement, cands []*Candidate) bool {
	existing := map[string]bool{}
	prices := map[string]float64{}
	for _, c := range cands {
		existing[c.instanceType.Name] = true
		compatible := c.instanceType.Offerings.Compatible(scheduling.NewLabelRequirements(c.Labels))
		if len(compatible) == 0 {
			continue
		}
		p, ok := prices[c.instanceType.Name]
		if !ok {
			p = math.MaxFloat64
		}
		if cp := compatible.Cheapest().Price; cp < p {
			prices[c.instanceType.Name] = cp
		}
	}
	maxPrice := math.MaxFloat64
	for _, it := range r.InstanceTypeOptions {
		if existing[it.Name] && prices[it.Name] < maxPrice {
			maxPrice = prices[it.Name]
		}
	}
	return removeByPriceAndMinValues(r.NodeClaim, maxPrice) == nil
}

func (m *multiNodeConsolidation) reason() karpv1.DisruptionReason {
	return karpv1.DisruptionReasonUnderutilized
}
func (m *multiNodeConsolidation) class() string { return GracefulDisruptionClass }
func (m *multiNodeConsolidation) name() string  { return MethodMulti }
