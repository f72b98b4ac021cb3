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
	const head = "Karpenter breaks %d ties randomly (equally loaded zones, daemon overhead order)"
	if r.Exhaustive && r.Outcomes == 1 {
		return fmt.Sprintf(head+"; every way of breaking them gives the same nodes and cost, zones aside (all its choices walked in %d runs)", sim.TieBreaks, r.Runs)
	}
	outcomes := fmt.Sprintf("%d outcomes", r.Outcomes)
	if r.Outcomes == 1 {
		outcomes = "1 outcome"
	}
	over := fmt.Sprintf("over all %s (every distinct outcome of its choices, walked in %d runs)", outcomes, r.Runs)
	if !r.Exhaustive {
		over = fmt.Sprintf("over the %s found in %d runs and %d draws (a walk of its choices, a seeded sample and a search toward the cheapest and the dearest; "+
			"not every outcome, so not a bound: Karpenter may land outside it)", outcomes, r.Runs, r.Samples)
	}
	cost := "its cost is " + money.Hourly(sim.Currency, r.Max)
	if r.Min != r.Max {
		cost = fmt.Sprintf("its cost ranges %s–%s", money.Format(sim.Currency, r.Min, 4), money.Hourly(sim.Currency, r.Max))
	}
	pending := ""
	if r.MaxPending > 0 {
		pending = ", " + span(r.MinPending, r.MaxPending) + " pods pending"
	}
	expected := ""
	if r.Samples > 0 && r.Min != r.Max {
		expected = fmt.Sprintf("; expected %s (the mean of %d seeded draws of its random choices)", money.Hourly(sim.Currency, r.Expected), r.Samples)
	}
	return fmt.Sprintf(head+"; %s, %s nodes%s, %s%s; the nodes shown break each tie by name", sim.TieBreaks, cost, span(r.MinNodes, r.MaxNodes), pending, over, expected)
}

// span is "n" or "min–max".
func span(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}
