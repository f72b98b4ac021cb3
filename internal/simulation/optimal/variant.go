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
	// pinnedFirst packs the zone-pinned pods (zone spread) before the others, so that the
	// nodes a zone needs for its own pods are opened first and the pods free to go anywhere
	// fill their room; packing by value alone opens large nodes for the latter first and
	// leaves each zone's few pinned pods partly used nodes of their own.
	pinnedFirst bool
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

func variants(md *model) int {
	pods := 0
	for _, u := range md.units {
		pods += u.count
	}
	return max(1, min(maxVariants, variantBudget/max(pods, 1)))
}

// pack packs the model's pods afresh with variant v: assigned to pools in Karpenter's order,
// packed per pool, then improved.
func (md *model) pack(v int) *packing {
	pk := md.newPacking()
	if n := variants(md); v >= n {
		pk.variant.pinnedFirst = true
		v -= n
	}
	pk.variant.repeatSlack = []float64{1e-2, 1e-3, 3e-2}[v%3]
	if v > 0 {
		pk.variant.rng = rand.New(rand.NewPCG(md.seed, uint64(v)))
	}
	pk.schedule()
	pk.improve()
	return pk
}

// hasPinned reports whether any pods are pinned to a zone (zone spread).
func (md *model) hasPinned() bool {
	for _, u := range md.units {
		if u.zone >= 0 {
			return true
		}
	}
	return false
}
