package optimal

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/bitset"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal/lp"
)

// Column generation for the configuration LP (see configurationBound), shared by the
// certified bound and by repackFromLP.

// run alternates solving the master problem and adding the patterns its prices ask for,
// until no offering has a pattern worth more than its target or the budget is spent. Without
// thorough, patterns are only looked for by greedy fills and by rounding LP relaxations.
func (cg *columnGeneration) run(budget cgBudget, thorough bool) error {
	for range budget.iterations {
		if _, err := cg.lp.Optimize(budget.pivots); err != nil {
			return err
		}
		pi, mu := cg.prices()
		cands := cg.price(pi, mu, false, budget)
		if len(cands) == 0 && thorough {
			cands = cg.price(pi, mu, true, budget)
		}
		if len(cands) == 0 || !cg.add(cands, budget.columns) {
			return nil
		}
	}
	_, err := cg.lp.Optimize(budget.pivots)
	return err
}

// cgBudget caps the column generation; the bound is valid whenever it stops.
type cgBudget struct {
	iterations int // master problem re-solves
	pivots     int // per re-solve
	columns    int // patterns added per round
	nodes      int // knapsack search nodes per offering and round
	cells      int // grid states of the dynamic programs
}

var defaultCGBudget = cgBudget{iterations: 400, pivots: 20000, columns: 100, nodes: 2000, cells: 1 << 15}

// maxPatternGroups caps the pod groups (distinct requests and options) of a configuration LP.
// Its master problem has a row per group and its pricing a knapsack item per group, and
// both cost the square of the rows or worse: past a few dozen groups a run takes seconds, so
// larger inputs keep the greedy packing and the default bound.
const maxPatternGroups = 64

// cgTolerance is how much a pattern must be worth above its target for the search to report
// it: proving that no pattern beats its target by more than 0.3 % prunes far more of the
// search than proving none beats it at all, and costs the bound at most 0.3 %.
const cgTolerance = 3e-3

type columnGeneration struct {
	md     *model
	groups []cgGroup
	offers []cgOffer
	limits int // limit rows, after the group rows
	lp     *lp.RevisedLP
	seen   map[string]bool
	// patterns are the master's columns that are patterns, by column index.
	patterns map[int]cgPattern
	// groupOf maps the packing's units to their group.
	groupOf map[*unit]int
}

// cgGroup is identical pods that may use the same offerings: the bound's groups merged where
// only their workload differs.
type cgGroup struct {
	d    []int64
	pods int
}

// cgOffer is a node offering: the groups it serves and the share of each limit row one node
// of it uses (limits scaled to 1).
type cgOffer struct {
	pool    *simPool
	t       int
	price   float64
	alloc   []int64
	members []int
	fit     []int // per member, how many of its pods one node holds
	caps    map[int]float64
	weight  [][]int64 // per member, its requests (the knapsack's weights)
}

type cgPattern struct {
	offer int
	take  []int // per member of the offer
	gain  float64
}

func (md *model) newColumnGeneration(groups []*boundGroup, cols []boundColumn) *columnGeneration {
	cg := &columnGeneration{md: md, seen: map[string]bool{}, patterns: map[int]cgPattern{}, groupOf: map[*unit]int{}}
	// Offerings of the same type and groups differ in price only: keep the cheapest.
	cheapest := map[string]int{}
	var kept []boundColumn
	for _, c := range cols {
		key := strconv.Itoa(c.pool.idx) + "/" + strconv.Itoa(c.t) + "/" + string(bitsetKey(c.members))
		if k, ok := cheapest[key]; ok {
			if c.price < kept[k].price {
				kept[k] = c
			}
			continue
		}
		cheapest[key] = len(kept)
		kept = append(kept, c)
	}
	// Groups with the same requests and offerings are one group.
	merged := map[string]int{}
	orig := make([]int, len(groups)) // bound group → cg group
	for g, bg := range groups {
		offers := bitset.New(len(kept))
		for j, c := range kept {
			if c.members.Has(g) {
				offers.Add(j)
			}
		}
		d := md.workloads[bg.u.w].d
		key := fmt.Sprint(d) + string(bitsetKey(offers))
		k, ok := merged[key]
		if !ok {
			k = len(cg.groups)
			merged[key] = k
			cg.groups = append(cg.groups, cgGroup{d: d})
		}
		cg.groups[k].pods += bg.pods
		orig[g] = k
		// A unit's pods may be in two groups (pinned to its zone, and floating: see
		// boundGroups); the packing's nodes seed the LP through the first.
		for _, u := range bg.from {
			if _, ok := cg.groupOf[u]; !ok {
				cg.groupOf[u] = k
			}
		}
	}
	if len(cg.groups) > maxPatternGroups {
		return nil
	}
	G := len(cg.groups)
	limitRow := map[*simPool]int{}
	for _, p := range md.pools {
		if len(p.limits) > 0 {
			limitRow[p] = G + cg.limits
			cg.limits += len(p.limits)
		}
	}
	for _, c := range kept {
		pt := c.pool.types[c.t]
		o := cgOffer{pool: c.pool, t: c.t, price: c.price, alloc: pt.alloc, caps: map[int]float64{}}
		usable := true
		for li, l := range c.pool.limits {
			if v := float64(pt.capLimit[li]); v > 0 {
				usable = usable && l.limit > 0
				o.caps[limitRow[c.pool]+li] = v / float64(max(l.limit, 1))
			}
		}
		seen := map[int]bool{}
		c.members.Each(func(g int) {
			if k := orig[g]; !seen[k] {
				seen[k] = true
				o.members = append(o.members, k)
			}
		})
		sort.Ints(o.members)
		zero := make([]int64, len(o.alloc))
		for _, g := range o.members {
			o.fit = append(o.fit, lp.MaxFit(o.alloc, zero, cg.groups[g].d, cg.groups[g].pods))
		}
		if usable {
			cg.offers = append(cg.offers, o)
		}
	}
	if !cg.startBasis() {
		return nil
	}
	return cg
}

// startBasis makes each group alone on the offering with its lowest price per pod the first
// basis, with a slack per limit row, or, where those nodes break the limit, an elastic column
// priced far above any placement that only serves to make the start feasible.
func (cg *columnGeneration) startBasis() bool {
	G := len(cg.groups)
	b := make([]float64, G+cg.limits)
	for g, gr := range cg.groups {
		b[g] = float64(gr.pods)
	}
	for r := G; r < len(b); r++ {
		b[r] = 1
	}
	cg.lp = lp.NewRevisedLP(b)
	basis := make([]int, len(b))
	usage := make([]float64, cg.limits)
	var total float64
	for g, gr := range cg.groups {
		best, bestK, bestRate := -1, 0, math.Inf(1)
		for j, o := range cg.offers {
			if i := sort.SearchInts(o.members, g); i == len(o.members) || o.members[i] != g {
				continue
			}
			k := lp.MaxFit(o.alloc, make([]int64, len(o.alloc)), gr.d, gr.pods)
			if k > 0 && o.price/float64(k) < bestRate {
				best, bestK, bestRate = j, k, o.price/float64(k)
			}
		}
		if best < 0 {
			return false
		}
		take := make([]int, len(cg.offers[best].members))
		take[sort.SearchInts(cg.offers[best].members, g)] = bestK
		basis[g] = cg.addPattern(cgPattern{offer: best, take: take})
		x := float64(gr.pods) / float64(bestK)
		total += x * cg.offers[best].price
		for r, v := range cg.offers[best].caps {
			usage[r-G] += x * v
		}
	}
	for g := range cg.groups {
		cg.lp.AddCol(lp.SparseCol{Rows: []int{g}, Vals: []float64{-1}}) // surplus
	}
	penalty := 100 * math.Max(total, 1)
	for l := range usage {
		r := G + l
		slack := cg.lp.AddCol(lp.SparseCol{Rows: []int{r}, Vals: []float64{1}})
		elastic := cg.lp.AddCol(lp.SparseCol{Rows: []int{r}, Vals: []float64{-1}, Cost: penalty})
		basis[r] = slack
		if usage[l] > 1 {
			basis[r] = elastic
		}
	}
	return cg.lp.Start(basis) == nil
}

// seed adds the packing's own nodes as patterns, so that the master problem starts no worse
// than the placement whose quality the bound is to judge (or that the LP is to improve).
func (cg *columnGeneration) seed(nodes []*simNode) {
	for _, n := range nodes {
		if n.dead || len(n.place) == 0 {
			continue
		}
		count := map[int]int{}
		known := true
		for _, pl := range n.place {
			g, ok := cg.groupOf[pl.u]
			known = known && ok
			count[g] += pl.n
		}
		if !known {
			continue
		}
		total := sumCounts(count)
		best := cgPattern{offer: -1}
		for j, o := range cg.offers {
			if o.pool != n.pool || o.t != n.t || (best.offer >= 0 && o.price >= cg.offers[best.offer].price) {
				continue
			}
			take := make([]int, len(o.members))
			held := 0
			for i, g := range o.members {
				take[i] = count[g]
				held += count[g]
			}
			if held == total {
				best = cgPattern{offer: j, take: take}
			}
		}
		if best.offer >= 0 && !cg.seen[cg.key(best)] {
			cg.addPattern(best)
		}
	}
}

func sumCounts(m map[int]int) int {
	var s int
	for _, v := range m {
		s += v
	}
	return s
}

func (cg *columnGeneration) key(p cgPattern) string {
	var sb strings.Builder
	sb.WriteString(strconv.Itoa(p.offer))
	for i, k := range p.take {
		if k > 0 {
			sb.WriteString("," + strconv.Itoa(cg.offers[p.offer].members[i]) + ":" + strconv.Itoa(k))
		}
	}
	return sb.String()
}

func (cg *columnGeneration) addPattern(p cgPattern) int {
	cg.seen[cg.key(p)] = true
	o := cg.offers[p.offer]
	col := lp.SparseCol{Cost: o.price}
	for i, k := range p.take {
		if k > 0 {
			col.Rows = append(col.Rows, o.members[i])
			col.Vals = append(col.Vals, float64(k))
		}
	}
	rows := make([]int, 0, len(o.caps))
	for r := range o.caps {
		rows = append(rows, r)
	}
	sort.Ints(rows)
	for _, r := range rows {
		col.Rows = append(col.Rows, r)
		col.Vals = append(col.Vals, o.caps[r])
	}
	j := cg.lp.AddCol(col)
	cg.patterns[j] = p
	return j
}

// prices are the master problem's dual prices: per group, what one more pod costs (π ≥ 0),
// and per limit row, what one more unit of limit saves (μ ≥ 0).
func (cg *columnGeneration) prices() ([]float64, []float64) {
	y := cg.lp.Duals()
	G := len(cg.groups)
	pi := make([]float64, G)
	for g := range pi {
		pi[g] = math.Max(0, y[g])
	}
	mu := make([]float64, cg.limits)
	for l := range mu {
		mu[l] = math.Max(0, -y[G+l])
	}
	return pi, mu
}

// target is what a pattern of offering j must be worth to lower the master's cost: its price
// plus the value of the limits one node uses.
func (cg *columnGeneration) target(j int, mu []float64) float64 {
	t := cg.offers[j].price
	for r, v := range cg.offers[j].caps {
		t += mu[r-len(cg.groups)] * v
	}
	return t
}

// knapsack is offering j's pricing problem over its groups (zero-valued ones never help).
func (cg *columnGeneration) knapsack(j int, pi []float64) *lp.Knapsack {
	o := &cg.offers[j]
	n := len(o.members)
	if o.weight == nil {
		o.weight = make([][]int64, n)
		for i, g := range o.members {
			o.weight[i] = cg.groups[g].d
		}
	}
	weight := o.weight
	value := make([]float64, n)
	count := make([]int, n)
	any := false
	for i, g := range o.members {
		if pi[g] > 1e-12 {
			value[i] = pi[g]
			count[i] = o.fit[i]
			any = any || count[i] > 0
		}
	}
	if !any {
		return nil
	}
	return lp.NewKnapsack(o.alloc, weight, value, count)
}

// valueCap bounds the value of any pattern of offering j at prices pi: every member's pods
// that fit on an empty node, at its price. Relaxation is never above it, so an offering it
// rules out is one the knapsack's bounds rule out too, for a fraction of the cost.
func (cg *columnGeneration) valueCap(j int, pi []float64) float64 {
	o := &cg.offers[j]
	var v float64
	for i, g := range o.members {
		if pi[g] > 1e-12 {
			v += pi[g] * float64(o.fit[i])
		}
	}
	return v
}

// price looks for patterns worth more than their offering's target, cheapest means first:
// filling the node greedily; then, unless a bound rules the offering out, rounding its LP
// relaxation; and (thorough) by search and by dynamic programming over rounded-up weights.
func (cg *columnGeneration) price(pi, mu []float64, thorough bool, budget cgBudget) []cgPattern {
	var out []cgPattern
	for j := range cg.offers {
		want := cg.target(j, mu) * (1 + cgTolerance)
		if cg.valueCap(j, pi) <= want {
			continue // no pattern can be worth more: the knapsack need not be built
		}
		ks := cg.knapsack(j, pi)
		if ks == nil || ks.Relaxation(0, ks.Capacity()) <= want {
			continue
		}
		take, v := ks.Greedy()
		if v <= want {
			if ks.DimOrders(); ks.Relaxation(0, ks.Capacity()) <= want {
				continue
			}
			if ks.SolveLP(); ks.Relaxation(0, ks.Capacity()) <= want {
				continue
			}
			take, v = ks.Greedy()
		}
		if thorough && v <= want {
			take, v, _ = ks.Solve(want, budget.nodes)
			if take == nil {
				take, v = ks.Grid(budget.cells, true)
			}
		}
		if take != nil && v > want {
			out = append(out, cgPattern{offer: j, take: take, gain: v / want})
		}
	}
	return out
}

// add puts the most valuable new patterns into the master problem; false when all are known
// (the master already prices them, so the search is done).
func (cg *columnGeneration) add(cands []cgPattern, limit int) bool {
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].gain > cands[b].gain })
	added := 0
	for _, p := range cands {
		if added == limit {
			break
		}
		if cg.seen[cg.key(p)] {
			continue
		}
		cg.addPattern(p)
		added++
	}
	return added > 0
}
