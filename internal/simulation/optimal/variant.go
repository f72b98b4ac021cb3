package optimal

import (
	"math/rand/v2"
	"slices"
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
	pb.variant = variant{}
	if n := variants(pb); v >= n {
		pb.variant.pinnedFirst = true
		v -= n
	}
	pb.variant.repeatSlack = []float64{1e-2, 1e-3, 3e-2}[v%3]
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

// hasPinned reports whether any pods are pinned to a zone (zone spread).
func (pb *problem) hasPinned() bool {
	for _, u := range pb.units {
		if u.zone >= 0 {
			return true
		}
	}
	return false
}

// packing is a saved packing: the nodes, every unit's state and the pools' limits.
type packing struct {
	variant variant
	nodes   []*simNode
	units   []unit
	limits  [][]int64
}

func (pb *problem) save() *packing {
	s := &packing{variant: pb.variant}
	for _, n := range pb.nodes {
		s.nodes = append(s.nodes, n.clone())
	}
	for _, u := range pb.units {
		s.units = append(s.units, *u)
	}
	for _, p := range pb.pools {
		var l []int64
		for _, x := range p.limits {
			l = append(l, x.remaining)
		}
		s.limits = append(s.limits, l)
	}
	return s
}

// restore makes s the packing (s is not used afterwards).
func (pb *problem) restore(s *packing) {
	pb.variant, pb.nodes = s.variant, s.nodes
	for i, u := range pb.units {
		*u = s.units[i]
	}
	for i, p := range pb.pools {
		for j := range p.limits {
			p.limits[j].remaining = s.limits[i][j]
		}
	}
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

func (n *simNode) clone() *simNode {
	c := *n
	c.used = slices.Clone(n.used)
	c.place = slices.Clone(n.place)
	return &c
}
