package report

import (
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simreport"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// ClusterCost is what a cluster's workloads are predicted to cost on its NodePools
// (review --workloads), and with --baseline what they cost before the change.
type ClusterCost struct {
	Cluster string `json:"cluster"`
	Region  string `json:"region,omitempty"`
	// Method is how the nodes were chosen: "karpenter" (Karpenter's scheduler) or "optimal"
	// (the cheapest packing the solver finds), see the simulate command.
	Method     string  `json:"method"`
	HourlyCost float64 `json:"hourlyCost"`
	// Currency is the ISO 4217 code of every cost of the cluster (its price table's: USD,
	// CNY in AWS's China regions); "" when nothing was simulated.
	Currency string `json:"currency,omitempty"`
	// OptimalHourlyCost is the cheapest packing of the same pods on the same pools, and
	// LowerBound a proven bound below any packing: their gap to HourlyCost is what the
	// NodePool design costs.
	OptimalHourlyCost float64    `json:"optimalHourlyCost"`
	LowerBound        float64    `json:"lowerBound"`
	Pools             []PoolCost `json:"pools"`
	// Unschedulable counts the pods no pool can take.
	Unschedulable int `json:"unschedulable"`
	// Baseline is the same for the baseline checkout; nil without --baseline or when the
	// baseline has no such cluster.
	BaselineHourlyCost *float64 `json:"baselineHourlyCost,omitempty"`
	BaselineMethod     string   `json:"baselineMethod,omitempty"`
	// BaselineCurrency is the baseline's currency when it differs (a region moved to one that
	// prices in another): the costs are then not compared.
	BaselineCurrency string `json:"baselineCurrency,omitempty"`
	// Note says why there is no cost or what was assumed.
	Notes []string `json:"notes,omitempty"`
	// Advice is the cheapest NodePool edit verified with Karpenter's decision when its cost
	// exceeds the optimum by more than 10 % (KRP118).
	Advice *simulation.Advice `json:"advice,omitempty"`
	// Provisioned is Karpenter's provisioning rounds run until one places nothing more; the
	// cost above is the first round's.
	Provisioned *ProvisionedCost `json:"provisioned,omitempty"`
	// SteadyState (--steady-state) is Karpenter run on a simulated clock to its steady state,
	// with the disruptions on the way, as simulate's clusters[].steadyState; Settled is the
	// same for the text report.
	SteadyState *simreport.Steady   `json:"steadyState,omitempty"`
	Settled     *simulation.Settled `json:"-"`
	// Findings are the disruption checks of the workloads on the pools (KRP411–KRP414); they
	// join the report's findings.
	Findings []source.Finding `json:"-"`
}

// ProvisionedCost is the state after Karpenter's provisioning rounds (not a steady state:
// no consolidation, drift or expiry is emulated).
type ProvisionedCost struct {
	Label         string                 `json:"label"`
	Rounds        []simulation.RoundView `json:"rounds"`
	Nodes         int                    `json:"nodes"`
	HourlyCost    float64                `json:"hourlyCost"`
	Unschedulable int                    `json:"unschedulable"`
}

// PoolCost is one NodePool's part, with the baseline's when there is one.
type PoolCost struct {
	Pool               string   `json:"pool"`
	Nodes              int      `json:"nodes"`
	HourlyCost         float64  `json:"hourlyCost"`
	BaselineNodes      *int     `json:"baselineNodes,omitempty"`
	BaselineHourlyCost *float64 `json:"baselineHourlyCost,omitempty"`
	// Delta is HourlyCost − BaselineHourlyCost (a pool only one side has counts as 0 there).
	Delta *float64 `json:"delta,omitempty"`
}
