package optimal

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/bitset"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal/lp"
)

// boundGroup is identical scheduled pods: of one unit, or, for the pods of zone-spread
// workloads that no split maxSkew allows pins to a zone, of the zone copies of one shape (see
// boundGroups).
type boundGroup struct {
	u      *unit // a unit of the group: its first workload's requests and class are the group's
	from   []*unit
	class  int
	zone   int
	demand []float64
	pods   int
	// cover is what the group's row of the LP over node types covers: its pods, and for a
	// floating group also the pinned pods of its shape, which use offerings it may use too
	// (every pod of the shape is on a node of an offering the floating group may use).
	cover int
}

// boundColumn is a node offering (pool, type, and the offerings of equal price that the same
// groups may use), a variable of the LP.
type boundColumn struct {
	pool    *simPool
	t       int
	price   float64
	members bitset.Set // groups whose pods may use it and fit on it
	key     string     // members as a map key (bitsetKey)
}

// lowerBound is the LP relaxation of the scheduled pods over every node offering they may use
// (x_o fractional nodes of offering o, minimising Σ price_o·x_o) with three kinds of rows:
//
//   - per group g, Σ k_go·x_o ≥ pods_g, where k_go is how many of g's pods fit on an empty
//     node of o: pods are indivisible, so a node that holds one 2-cpu pod in 1.9 allocatable
//     cpus holds none, which a resource-only relaxation would miss (a floating group of spread
//     pods covers the pinned pods of its shape too: see boundGroup.cover);
//   - per pod class (pods with the same requirements and tolerations) and resource, the nodes
//     the class may use offer its demand;
//   - per resource, all nodes together offer the total demand; per pool limit, the nodes of
//     the pool stay within it.
//
// Every placement that respects requirements, allocatable and limits, with any split of the
// spread pods over the zones that their maxSkew allows (see boundGroups), satisfies these
// rows, so the LP optimum (certified through a feasible dual solution) is a lower bound on its
// cost.
func (md *model) lowerBound(pk *packing) (float64, []simmodel.BoundGroup) {
	groups := md.boundGroups(pk)
	if len(groups) == 0 {
		return 0, nil
	}
	cols := md.boundColumns(groups, md.pools)
	bound, err := md.solveBound(groups, cols, true)
	if errors.Is(err, lp.ErrInfeasible) {
		// The placement found is feasible, so this is rounding in the simplex; the bound
		// without the limit rows is still valid.
		bound, err = md.solveBound(groups, cols, false)
	}
	if err != nil {
		bound = 0
	}
	if md.configBound {
		bound = math.Max(bound, md.configurationBound(groups, cols))
	}
	var out []simmodel.BoundGroup
	for gi, g := range groups {
		bg := simmodel.BoundGroup{Pods: g.pods, Bound: math.Inf(1)}
		for _, u := range g.from {
			for _, m := range u.members {
				if name := md.workloads[m.w].w.Name; !slices.Contains(bg.Workloads, name) {
					bg.Workloads = append(bg.Workloads, name)
				}
			}
		}
		if g.zone >= 0 {
			bg.Zone = md.zones[g.zone]
		}
		// Alone, a group's bound is its pods at the lowest price per pod that fits.
		for _, c := range cols {
			if c.members.Has(gi) {
				k := lp.MaxFit(c.pool.types[c.t].alloc, make([]int64, len(md.dims)), md.workloads[g.u.w].d, math.MaxInt32)
				bg.Bound = math.Min(bg.Bound, c.price/float64(k)*float64(g.pods))
			}
		}
		bg.Bound = analysis.RoundPrice(bg.Bound)
		out = append(out, bg)
	}
	return bound, out
}

// boundGroups is the scheduled pods as the bounds' groups, so that the bounds hold for every
// placement Karpenter's rules allow, not only for the optimum's. The optimum splits a
// zone-spread workload's pods evenly over its zones (makeUnits), but maxSkew k admits every
// split whose counts per zone differ by at most k, and a cheaper packing may need an uneven
// one (a size offered in only some zones, or whole nodes in fewer zones). Of a workload's P
// scheduled pods over Z zones, every such split leaves each zone at least
//
//	L = max(0, ⌈(P − (Z−1)·k) / Z⌉)
//
// (the zone with the fewest has m, the others at most m + k, so P ≤ m + (Z−1)·(m+k)): each
// zone's group is pinned only that many, the rest of its pods join one group per pod shape
// (class and requests) that may use any of the class's zones. For k = 1 that floats the
// remainder of P ÷ Z; for k ≥ P every pod floats. Any placement within maxSkew meets these
// groups' rows, and so does the optimum's own (a zone is never pinned more pods than the
// optimum placed there). Karpenter counts a spread's domains over every NodePool's zones (the
// class's zones are among them), and a larger set of domains only allows fewer splits.
func (md *model) boundGroups(pk *packing) []*boundGroup {
	placed := md.memberPlaced(pk)
	total := make([]int, len(md.workloads))
	for ui, u := range md.units {
		for mi, m := range u.members {
			total[m.w] += placed[ui][mi]
		}
	}
	var groups, floats []*boundGroup
	floatOf := map[string]*boundGroup{}
	for ui, u := range md.units {
		n := pk.placed(u)
		if n == 0 {
			continue
		}
		if u.zone < 0 {
			groups = append(groups, md.boundGroup(u, n))
			continue
		}
		pinned := 0
		for mi, m := range u.members {
			pinned += min(md.spreadFloor(m.w, total[m.w]), placed[ui][mi])
		}
		if pinned > 0 {
			groups = append(groups, md.boundGroup(u, pinned))
		}
		if rest := n - pinned; rest > 0 {
			sw := md.workloads[u.w]
			key := fmt.Sprint(sw.class, "/", sw.d)
			g := floatOf[key]
			if g == nil {
				g = md.boundGroup(u, 0)
				g.zone, g.from, g.cover = -1, nil, 0
				floatOf[key] = g
				floats = append(floats, g)
			}
			g.from = append(g.from, u)
			g.pods += rest
			for d, v := range sw.d {
				g.demand[d] += float64(v) * float64(rest)
			}
		}
	}
	for _, g := range groups {
		if f := floatOf[fmt.Sprint(g.class, "/", md.workloads[g.u.w].d)]; f != nil {
			f.cover += g.pods
		}
	}
	for _, f := range floats {
		f.cover += f.pods
	}
	return append(groups, floats...)
}

// spreadFloor is the fewest of workload w's pods any zone holds when pods of it are spread
// within its maxSkew over its class's zones (see boundGroups).
func (md *model) spreadFloor(w, pods int) int {
	sw := md.workloads[w]
	z, k := len(md.classes[sw.class].zones), int(sw.w.ZoneSpread)
	if z == 0 || k <= 0 {
		return 0
	}
	if x := pods - (z-1)*k; x > 0 {
		return (x + z - 1) / z
	}
	return 0
}

// memberPlaced is, per unit and member, how many of the member's pods are placed: a unit's
// placed pods go to its members in order, as the report hands them out (attribution).
func (md *model) memberPlaced(pk *packing) [][]int {
	out := make([][]int, len(md.units))
	for ui, u := range md.units {
		out[ui] = make([]int, len(u.members))
		left := pk.placed(u)
		for mi, m := range u.members {
			k := min(left, m.count)
			out[ui][mi] = k
			left -= k
		}
	}
	return out
}

func (md *model) boundGroup(u *unit, pods int) *boundGroup {
	sw := md.workloads[u.w]
	g := &boundGroup{u: u, from: []*unit{u}, class: sw.class, zone: u.zone, demand: make([]float64, len(md.dims)), pods: pods, cover: pods}
	for d, v := range sw.d {
		g.demand[d] = float64(v) * float64(pods)
	}
	return g
}

// boundColumns lists the node offerings any group may use, merging offerings of a type that
// cost the same and serve the same groups (zones, mostly), and dropping offerings that a
// cheaper one of the pool dominates: at least as much of every resource, no more of any limit.
//
// The columns depend on the pools and on each group's class, zone and requests only, not on
// its pods, so they are computed once per such list (the re-pack's dive asks again every
// round) and shared; callers do not change them.
func (md *model) boundColumns(groups []*boundGroup, pools []*simPool) []boundColumn {
	key := make([]byte, 0, 4*(len(pools)+3*len(groups)))
	for _, p := range pools {
		key = binary.AppendUvarint(key, uint64(p.idx))
	}
	key = append(key, '|')
	for _, g := range groups {
		key = binary.AppendUvarint(key, uint64(g.class))
		key = binary.AppendUvarint(key, uint64(g.zone+1))
		key = binary.AppendUvarint(key, uint64(g.u.w))
	}
	if cols, ok := md.columns[string(key)]; ok {
		return cols
	}
	cols := slices.Clip(md.listBoundColumns(groups, pools))
	md.columns[string(key)] = cols
	return cols
}

func (md *model) listBoundColumns(groups []*boundGroup, pools []*simPool) []boundColumn {
	var cols []boundColumn
	able := make([]int, 0, len(groups))
	ableMask := make([]uint64, 0, len(groups)) // per able group, its class's offerings of the type
	rows := make([][]uint64, len(groups))
	seen := map[string]bool{}
	var key []byte
	for _, p := range pools {
		for gi, g := range groups {
			rows[gi] = md.classes[g.class].masks[p.idx]
		}
		var pool []boundColumn
		for t, pt := range p.types {
			if !pt.usable {
				continue
			}
			// Groups whose class may use some offering of the type and whose pods fit on it;
			// the offerings then differ only by zone and class mask.
			able, ableMask = able[:0], ableMask[:0]
			for gi, g := range groups {
				if m := rows[gi]; m != nil && m[t] != 0 && fits(pt.alloc, nil, md.workloads[g.u.w].d, 1) {
					able = append(able, gi)
					ableMask = append(ableMask, m[t])
				}
			}
			if len(able) == 0 {
				continue
			}
			clear(seen)
			for j := range pt.offs {
				bit, zone := uint64(1)<<uint(j), pt.zone[j]
				members := bitset.New(len(groups))
				empty := true
				for k, gi := range able {
					if ableMask[k]&bit == 0 {
						continue
					}
					if z := groups[gi].zone; z >= 0 && z != zone {
						continue
					}
					members.Add(gi)
					empty = false
				}
				if empty {
					continue
				}
				key = appendBitsetKey(key[:0], members)
				n := len(key)
				key = strconv.AppendFloat(append(key, '|'), pt.price[j], 'g', -1, 64)
				if seen[string(key)] {
					continue
				}
				seen[string(key)] = true
				pool = append(pool, boundColumn{pool: p, t: t, price: pt.price[j], members: members, key: string(key[:n])})
			}
		}
		cols = append(cols, md.pareto(pool)...)
	}
	return cols
}

func (md *model) pareto(cols []boundColumn) []boundColumn {
	// By price, ties in list order: a stable sort of the columns, without moving them.
	order := make([]int32, len(cols))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(cols[a].price, cols[b].price); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var keep []boundColumn
	byMembers := map[string][]int{}
	for _, i := range order {
		c := cols[i]
		pt := c.pool.types[c.t]
		dominated := false
		for _, k := range byMembers[c.key] {
			o := c.pool.types[keep[k].t]
			ge := true
			for r := range pt.alloc {
				if o.alloc[r] < pt.alloc[r] {
					ge = false
					break
				}
			}
			for l := range pt.capLimit {
				if o.capLimit[l] > pt.capLimit[l] {
					ge = false
					break
				}
			}
			if ge {
				dominated = true
				break
			}
		}
		if !dominated {
			byMembers[c.key] = append(byMembers[c.key], len(keep))
			keep = append(keep, c)
		}
	}
	return keep
}

// sizeMembers is, per column, the groups some column of the same pool and instance type
// serves: the column's size in every zone and at every price.
func (md *model) sizeMembers(groups []*boundGroup, cols []boundColumn) []bitset.Set {
	bySize := map[[2]int]bitset.Set{}
	for _, c := range cols {
		k := [2]int{c.pool.idx, c.t}
		if bySize[k] == nil {
			bySize[k] = bitset.New(len(groups))
		}
		c.members.Each(bySize[k].Add)
	}
	out := make([]bitset.Set, len(cols))
	for j, c := range cols {
		out[j] = bySize[[2]int{c.pool.idx, c.t}]
	}
	return out
}

func bitsetKey(b bitset.Set) []byte { return appendBitsetKey(make([]byte, 0, len(b)*8), b) }

func appendBitsetKey(out []byte, b bitset.Set) []byte {
	for _, w := range b {
		for i := 0; i < 8; i++ {
			out = append(out, byte(w>>(8*i)))
		}
	}
	return out
}
