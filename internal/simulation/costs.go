package simulation

import (
	"math"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// PoolCost is what one NodePool's new nodes cost.
type PoolCost struct {
	Pool       string  `json:"pool"`
	Nodes      int     `json:"nodes"`
	HourlyCost float64 `json:"hourlyCost"`
}

// PoolCosts lists every simulated pool (in the order given, those that launch nothing at
// zero) with its nodes' count and hourly cost.
func PoolCosts(sim *simmodel.Simulation, pools []string) []PoolCost {
	out := make([]PoolCost, 0, len(pools))
	index := map[string]int{}
	for _, p := range pools {
		index[p] = len(out)
		out = append(out, PoolCost{Pool: p})
	}
	if sim == nil {
		return out
	}
	for _, n := range sim.Nodes {
		i, ok := index[n.Pool]
		if !ok {
			i = len(out)
			index[n.Pool] = i
			out = append(out, PoolCost{Pool: n.Pool})
		}
		out[i].Nodes++
		out[i].HourlyCost += n.HourlyPrice
	}
	for i := range out {
		out[i].HourlyCost = Round(out[i].HourlyCost)
	}
	return out
}

// Round rounds a price to a millionth of a dollar, as the solver reports them.
func Round(v float64) float64 { return math.Round(v*1e6) / 1e6 }
