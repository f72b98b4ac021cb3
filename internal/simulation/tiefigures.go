package simulation

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// TieFigures is what a prediction shows of Karpenter's random tie-breaks for the round in,
// whose Solve result (the outcome shown) is first: the range of the distinct outcomes found
// (tieOutcomes and the sample) and the expected hourly cost, the mean over a seeded sample of
// Karpenter's random choices (karpenter.Sample, tieRuns(pods) runs). Pods are grouped into
// workloads as Predict groups them by default (simmodel.GroupPods): the fidelity comparator
// calls it to measure Karpenter against the figures a user gets. nil when first has no ties.
func TieFigures(in karpenter.Input, first *karpenter.Result) (*simmodel.CostRange, error) {
	if first.Ties == 0 {
		return nil, nil
	}
	_, index := simmodel.GroupPods(in.Pods)
	of := make(map[*corev1.Pod]int, len(in.Pods))
	for i, p := range in.Pods {
		of[p] = index[i]
	}
	return tieFigures(in, first, of)
}

// ExpectedCost is TieFigures' expected hourly cost alone (the mean over the sample, and the
// sample's size): for a caller that knows the range already. first.Cost without ties.
func ExpectedCost(in karpenter.Input, first *karpenter.Result) (float64, int, error) {
	if first.Ties == 0 {
		return costOf(first), 0, nil
	}
	samples, err := karpenter.Sample(in, first, tieRuns(len(in.Pods)))
	if err != nil {
		return 0, 0, err
	}
	sum := 0.0
	for _, r := range samples {
		sum += costOf(r)
	}
	return sum / float64(len(samples)), len(samples), nil
}

// tieFigures is TieFigures with the pods' workloads given (of). Where the walk is not
// exhaustive, the range is over the walk's outcomes, the sample's and the cheapest and dearest
// the cost-directed search (karpenter.Extremes) finds from them.
func tieFigures(in karpenter.Input, first *karpenter.Result, of map[*corev1.Pod]int) (*simmodel.CostRange, error) {
	key := func(r *karpenter.Result) string { return outcomeOf(r, of).key }
	set, err := tieOutcomes(in, first, key)
	if err != nil {
		return nil, err
	}
	samples, err := karpenter.Sample(in, first, tieRuns(len(in.Pods)))
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(set.Results))
	add := func(r *karpenter.Result) {
		if k := key(r); !seen[k] {
			seen[k] = true
			set.Results = append(set.Results, r)
		}
	}
	for _, r := range set.Results {
		seen[key(r)] = true
	}
	sum := 0.0
	for _, r := range samples {
		sum += costOf(r)
		add(r)
	}
	if !set.Exhaustive {
		lo, hi, runs, err := karpenter.Extremes(in, set.Results, extremeRuns(len(in.Pods)), costOf)
		if err != nil {
			return nil, err
		}
		add(lo)
		add(hi)
		set.Runs += runs
	}
	cr := costRange(set, of) // Runs are the walk's and the search's; Samples counts the draws apart
	// The mean of costs within the range lies within it; the clamp takes off the rounding of the sum.
	cr.Expected, cr.Samples = min(max(sum/float64(len(samples)), cr.Min), cr.Max), len(samples)
	return cr, nil
}

// costOf is the hourly cost of the nodes a result launches (outcomeOf's cost).
func costOf(r *karpenter.Result) float64 {
	c := 0.0
	for _, nc := range r.NodeClaims {
		if nc.Launch != nil {
			c += nc.Launch.Offering.Price
		}
	}
	return c
}
