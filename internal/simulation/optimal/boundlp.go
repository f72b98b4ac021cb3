package optimal

import (
	"math"
	"sort"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/bitset"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal/lp"
)

// maxGroupRows caps the per-group rows (the largest groups first) to keep the program small;
// dropping rows only weakens the bound.
const maxGroupRows = 120

// maxCutRounds caps the rounds of cutting planes.
const maxCutRounds = 4

// boundLP is the LP over node types that lowerBound solves: a column per offering (cols),
// rows that every placement of the groups meets.
type boundLP struct {
	md     *model
	groups []*boundGroup
	cols   []boundColumn
	cover  *lp.CoverLP
	// seen holds the group sets whose resource rows are in the program.
	seen map[string]bool
	all  bitset.Set
}

func (md *model) solveBound(groups []*boundGroup, cols []boundColumn, withLimits bool) (float64, error) {
	b := &boundLP{md: md, groups: groups, cols: cols, cover: &lp.CoverLP{C: make([]float64, len(cols))}, seen: map[string]bool{}, all: bitset.New(len(groups))}
	for j, c := range cols {
		b.cover.C[j] = c.price
	}
	for gi := range groups {
		b.all.Add(gi)
	}
	b.groupRows()
	b.classRows()
	b.addSubset(b.all)
	if withLimits {
		b.limitRows()
	}
	res, err := b.cover.Solve()
	if err != nil {
		return 0, err
	}
	if res, err = b.cut(res); err != nil {
		return 0, err
	}
	return res.Bound, nil
}

// groupRows are one row per group (the largest first, up to maxGroupRows): its pods must be
// covered by the offerings it may use, each holding as many of them as fit alone.
func (b *boundLP) groupRows() {
	zero := make([]int64, len(b.md.dims))
	order := make([]int, len(b.groups))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return b.groups[order[x]].cover > b.groups[order[y]].cover })
	for i, gi := range order {
		if i == maxGroupRows {
			break
		}
		g := b.groups[gi]
		row := make([]float64, len(b.cols))
		for j, c := range b.cols {
			if c.members.Has(gi) {
				row[j] = float64(lp.MaxFit(c.pool.types[c.t].alloc, zero, b.md.workloads[g.u.w].d, g.cover))
			}
		}
		b.cover.A = append(b.cover.A, row)
		b.cover.B = append(b.cover.B, float64(g.cover))
	}
}

// addSubset adds, for each resource, the row saying that the groups of S need their demand of
// it from the offerings that serve any of them. It reports whether a row was added (S is new
// and demands something).
func (b *boundLP) addSubset(S bitset.Set) bool {
	key := string(bitsetKey(S))
	if b.seen[key] {
		return false
	}
	b.seen[key] = true
	added := false
	for d := range b.md.dims {
		var demand float64
		S.Each(func(gi int) { demand += b.groups[gi].demand[d] })
		if demand <= 0 {
			continue
		}
		row := make([]float64, len(b.cols))
		for j, c := range b.cols {
			if c.members.Intersects(S) {
				row[j] = float64(max(c.pool.types[c.t].alloc[d], 0))
			}
		}
		b.cover.A = append(b.cover.A, row)
		b.cover.B = append(b.cover.B, demand)
		added = true
	}
	return added
}

// classRows are the resource rows of each pod class's groups, when there are 2 to 20 classes.
func (b *boundLP) classRows() {
	classes := map[int]bitset.Set{}
	var classOrder []int
	for gi, g := range b.groups {
		if classes[g.class] == nil {
			classes[g.class] = bitset.New(len(b.groups))
			classOrder = append(classOrder, g.class)
		}
		classes[g.class].Add(gi)
	}
	if len(classOrder) > 1 && len(classOrder) <= 20 {
		for _, c := range classOrder {
			b.addSubset(classes[c])
		}
	}
}

// limitRows are each pool limit's row: the offerings' capacity counted against it is at most
// the limit.
func (b *boundLP) limitRows() {
	for _, p := range b.md.pools {
		for li, l := range p.limits {
			row := make([]float64, len(b.cols))
			any := false
			for j, c := range b.cols {
				if c.pool == p {
					row[j] = -float64(p.types[c.t].capLimit[li])
					any = any || row[j] != 0
				}
			}
			if any {
				b.cover.A = append(b.cover.A, row)
				b.cover.B = append(b.cover.B, -float64(l.limit))
			}
		}
	}
}

// cut adds cutting planes and solves again while they raise the bound. The pods that cannot
// use a node offering the optimum relies on must be covered by the other offerings. Typically
// the cheapest small sizes carry the fractional optimum while many pods do not fit on them at
// all; these rows say so.
//
// Each offering gives two sets: the groups it does not serve, and the groups no offering of
// its size serves (in any zone). With zone-pinned groups (zone spread) the first also holds
// the other zones' pinned pods, which the same cheap size covers in their own zone, so its row
// no longer separates the pods too large for the size from it: on the wide example (a third
// of 1,000 pods spread over 4 zones) the bound fell from $34.84 to $30.49 with only those rows.
// The second is the set a zone-free LP would cut with, valid whatever the zones, and restores
// it.
func (b *boundLP) cut(res *lp.Result) (*lp.Result, error) {
	sizeMembers := b.md.sizeMembers(b.groups, b.cols)
	prev := math.Inf(-1)
	for round := 0; round < maxCutRounds; round++ {
		// A round whose cuts did not raise the bound ends them: on the benchmark's 15 mixes
		// no round after such a round ever raised it, and each is a solve from scratch.
		if res.Bound <= prev*(1+1e-9) {
			break
		}
		prev = res.Bound
		unserved := b.all.Clone()
		unservedBySize := b.all.Clone()
		added := false
		for j, x := range res.X {
			if x <= 1e-7 {
				continue
			}
			for _, m := range []bitset.Set{b.cols[j].members, sizeMembers[j]} {
				S := b.all.Clone()
				S.AndNot(m)
				if S.Any() && b.addSubset(S) {
					added = true
				}
			}
			unserved.AndNot(b.cols[j].members)
			unservedBySize.AndNot(sizeMembers[j])
		}
		for _, S := range []bitset.Set{unserved, unservedBySize} {
			if S.Any() && b.addSubset(S) {
				added = true
			}
		}
		if !added {
			break
		}
		var err error
		if res, err = b.cover.Solve(); err != nil {
			return nil, err
		}
	}
	return res, nil
}
