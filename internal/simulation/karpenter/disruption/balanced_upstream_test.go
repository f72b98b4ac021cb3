package disruption_test

import (
	"math/rand/v2"
	"testing"

	upstream "sigs.k8s.io/karpenter/pkg/controllers/disruption"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// ScoreMove and its verdict equal upstream's on the same numbers, zero totals included.
func TestScoreMoveMatchesUpstream(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		savings, cost := r.Float64()*10-2, r.Float64()*20
		totals := disruption.NodePoolTotals{TotalCost: r.Float64() * 100, TotalDisruptionCost: r.Float64() * 200}
		if i%50 == 0 {
			totals.TotalCost = 0
		}
		k := int32(1 + r.IntN(4))
		got := disruption.ScoreMove(savings, cost, totals, k)
		want := upstream.ScoreMove(savings, cost, upstream.NodePoolTotals{TotalCost: totals.TotalCost, TotalDisruptionCost: totals.TotalDisruptionCost}, k)
		if got.SavingsFraction != want.SavingsFraction || got.DisruptionFraction != want.DisruptionFraction || got.Score() != want.Score() || got.Approved() != want.Approved() {
			t.Fatalf("ScoreMove(%v, %v, %+v, %d) = %+v (approved %v), upstream %+v (approved %v)", savings, cost, totals, k, got, got.Approved(), want, want.Approved())
		}
	}
}
