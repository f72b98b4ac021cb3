package optimal

import (
	"math/rand/v2"
)

// variant is one packing run's choices. Greedy packing is sensitive to ties and to the order
// of nearly equal pods, so small inputs, which take milliseconds, are packed several times
// with seeded perturbations and the cheapest result is kept; large inputs, which give the
// greedy many chances to even out, are packed once.
type variant struct {
	// repeatSlack is how much worse than the last search's winner a repeated type may score
	// before a new search runs (see packer.repeat).
	repeatSlack float64
	// rng perturbs pod values by up to ±2 % so that near ties break differently; nil keeps
	// the exact order.
	rng *rand.Rand
}

func (v variant) jitter(*unit) float64 {
	if v.rng == nil {
		return 1
	}
	return 1 + 0.04*(v.rng.Float64()-0.5)
}

// variantBudget is the pod count packed in all variants together: below it an input is
// packed more than once.
const (
	variantBudget = 8000
	maxVariants   = 8
)

func variants(pb *problem) int {
	pods := 0
	for _, u := range pb.units {
		pods += u.count
	}
	return max(1, min(maxVariants, variantBudget/max(pods, 1)))
}

// run packs the compiled problem afresh with variant v.
func (pb *problem) run(v int) {
	pb.reset()
	pb.variant = variant{repeatSlack: []float64{1e-2, 1e-3, 3e-2}[v%3]}
	if v > 0 {
		pb.variant.rng = rand.New(rand.NewPCG(pb.seed, uint64(v)))
	}
	pb.schedule()
	pb.improve()
}

// reset undoes a packing run: every pod pending again, limits untouched, no nodes.
func (pb *problem) reset() {
	for _, u := range pb.units {
		u.rem, u.blocked, u.reason, u.nextPool = u.count, nil, "", 0
	}
	for _, p := range pb.pools {
		for i := range p.limits {
			p.limits[i].remaining = p.limits[i].limit
		}
	}
	pb.nodes = nil
}

func (pb *problem) cost() float64 {
	var c float64
	for _, n := range pb.nodes {
		c += pb.price(n)
	}
	// Pods left unscheduled weigh more than any node: a run that places more pods wins.
	for _, u := range pb.units {
		c += float64(u.rem) * 1e6
	}
	return c
}
