package simulation

import (
	"context"
	"fmt"

	policyv1 "k8s.io/api/policy/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
)

// afterInput is in.After as Karpenter's decision takes it, or nil without a change. Its pools
// are read as Before's are; what it skips or assumes goes to res prefixed "after:", so that a
// reader can tell the two trees apart.
func afterInput(ctx context.Context, s *analysis.Analyzer, in Input, res *Result) (*PredictionInput, error) {
	if in.After == nil || !in.SteadyState {
		return nil, nil
	}
	a := *in.After
	a.Start, a.After = nil, nil // the change starts from Before's steady state
	if a.Region == "" {
		a.Region = in.Region
	}
	scratch := &Result{}
	pools, err := simPools(ctx, s, a, scratch)
	if err != nil {
		return nil, fmt.Errorf("after: %w", err)
	}
	if err := checkSize(s, a, pools); err != nil {
		return nil, err
	}
	for _, x := range scratch.Skipped {
		res.Skipped = append(res.Skipped, "after: "+x)
	}
	for _, x := range scratch.Assumptions {
		res.Assumptions = append(res.Assumptions, "after: "+x)
	}
	pin := predictionInput(a, pools)
	return &pin, nil
}

// nonNilPDBs is the change's budgets; none is an empty list, not Before's (SettleInput's nil).
func nonNilPDBs(p []*policyv1.PodDisruptionBudget) []*policyv1.PodDisruptionBudget {
	if p == nil {
		return []*policyv1.PodDisruptionBudget{}
	}
	return p
}
