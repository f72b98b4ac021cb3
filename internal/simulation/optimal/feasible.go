package optimal

import (
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// notAbove keeps the optimum at or below a feasible packing of the same pods (Karpenter's):
// the solver's packing is a heuristic and can cost more than Karpenter's own on a few pods
// (one large node where the greedy opens several small ones). The feasible packing replaces
// it when it places at least as many pods of every workload (so it holds the pods the lower
// bound is for, and the bound stays a bound) and leaves fewer pods pending or costs less.
// When the feasible packing leaves pods pending that the solver places, the solver's packing
// is kept: it is not comparable in cost, and placing more pods is what the optimum is for.
func notAbove(opt, feasible *simmodel.Simulation) *simmodel.Simulation {
	if feasible == nil || !money.Same(opt.Currency, feasible.Currency) {
		return opt
	}
	mine, theirs := placedByWorkload(opt), placedByWorkload(feasible)
	for w, n := range mine {
		if theirs[w] < n {
			return opt
		}
	}
	fewerPending := feasible.ScheduledPods > opt.ScheduledPods
	if !fewerPending && money.Round(opt.Currency, feasible.HourlyCost) >= money.Round(opt.Currency, opt.HourlyCost) {
		return opt
	}
	out := *opt
	out.Nodes = append([]simmodel.SimNode(nil), feasible.Nodes...)
	out.HourlyCost = money.Round(opt.Currency, feasible.HourlyCost)
	out.ScheduledPods, out.Unschedulable = feasible.ScheduledPods, feasible.Unschedulable
	out.Utilisation, out.PriceEstimated = feasible.Utilisation, feasible.PriceEstimated
	out.FromKarpenter = true
	return &out
}

// placedByWorkload counts the placed pods per workload, by the name of the object that owns
// them: the solver names a second pod shape of one owner "owner#2" (simmodel.GroupPods), and
// no Kubernetes name or label value contains "#".
func placedByWorkload(sim *simmodel.Simulation) map[string]int {
	out := map[string]int{}
	for _, n := range sim.Nodes {
		for _, pc := range n.Pods {
			name, _, _ := strings.Cut(pc.Workload, "#")
			out[name] += pc.Count
		}
	}
	return out
}
