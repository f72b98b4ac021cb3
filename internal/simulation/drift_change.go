package simulation

import (
	"context"
	"time"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
)

// ChangeDrift is the drift a change itself causes: the NodeClaims of snap drifted once after
// is applied that were not with before, per pool, at the pace after's budgets allow from start.
// already counts the NodeClaims drifted with before too, which the change does not cause.
func ChangeDrift(ctx context.Context, s *analysis.Analyzer, snap *clusterstate.Snapshot, before, after Input, start time.Time) (pools []PoolDrift, already int, err error) {
	was, err := Drift(ctx, s, snap, before)
	if err != nil {
		return nil, 0, err
	}
	now, err := Drift(ctx, s, snap, after)
	if err != nil {
		return nil, 0, err
	}
	drifted := map[string]bool{}
	for _, d := range was.Drifted {
		drifted[d.NodeClaim] = true
	}
	newly := now.Drifted[:0:0]
	for _, d := range now.Drifted {
		if drifted[d.NodeClaim] {
			already++
		} else {
			newly = append(newly, d)
		}
	}
	if len(newly) == 0 {
		return nil, already, nil
	}
	now.Drifted = newly
	return now.Impact(snap, start), already, nil
}
