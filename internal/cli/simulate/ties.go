package simulate

import (
	"fmt"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// tieText says, for a prediction where Karpenter breaks ties at random, how many and what its
// outcomes cost over the tie-breaks tried; "" when it breaks none.
func tieText(sim *simmodel.Simulation) string {
	r := sim.CostRange
	if sim.TieBreaks == 0 || r == nil {
		return ""
	}
	outcomes := fmt.Sprintf("%d outcomes", r.Outcomes)
	if r.Outcomes == 1 {
		outcomes = "1 outcome"
	}
	over := fmt.Sprintf("over all %s (every distinct outcome of its choices, walked in %d runs)", outcomes, r.Runs)
	if !r.Exhaustive {
		over = fmt.Sprintf("over %s (a sample of %d runs, not every outcome: Karpenter may land outside it)", outcomes, r.Runs)
	}
	nodes := fmt.Sprint(r.MinNodes)
	if r.MaxNodes != r.MinNodes {
		nodes = fmt.Sprintf("%d–%d", r.MinNodes, r.MaxNodes)
	}
	pending := ""
	if r.MaxPending > 0 {
		pending = fmt.Sprintf(", %d–%d pods pending", r.MinPending, r.MaxPending)
	}
	return fmt.Sprintf("Karpenter breaks %d ties randomly (equally loaded zones, daemon overhead order); its cost ranges %s–%s, %s nodes%s, %s; the nodes shown break each tie by name",
		sim.TieBreaks, money.Format(sim.Currency, r.Min, 4), money.Hourly(sim.Currency, r.Max), nodes, pending, over)
}
