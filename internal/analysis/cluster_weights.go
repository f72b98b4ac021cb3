package analysis

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// EqualWeightFindings reports groups of dynamic NodePools with the same weight whose
// requirements (template labels included) can be met by one node and that carry the same
// taints: they compete for the same pods, and Karpenter breaks the tie by name (it orders
// equal weights by name, descending), which nobody reading the manifests expects.
// Requirements are intersected with Karpenter's own scheduling package, so NotIn and
// DoesNotExist and the numeric operators mean what they mean to Karpenter.
//
// One finding per group of pools that compete (directly, or through others of the group),
// on the pool Karpenter tries second, naming the members (Related: the others' weights): a
// generated repository with 2,000 identical pools gets one finding, not two million.
// Identical requirements are compared once, and pools are indexed by the values of their In
// requirements, so pools that exclude each other by a label (the usual design) are never
// compared pairwise.
func EqualWeightFindings(pools []*Pool) []findings.Finding {
	buckets := map[string][]*weightPool{}
	var order []string
	for _, p := range pools {
		if p.Spec.Replicas != nil {
			continue // a static pool keeps a fixed node count and takes no pending pods
		}
		wp := newWeightPool(p)
		b := strconv.FormatInt(wp.weight, 10) + "\x00" + taintKey(p)
		if _, seen := buckets[b]; !seen {
			order = append(order, b)
		}
		buckets[b] = append(buckets[b], wp)
	}
	var out []findings.Finding
	for _, b := range order {
		groups, compared := competingGroups(buckets[b])
		for _, group := range groups {
			out = append(out, groupFinding(group))
		}
		if compared >= maxComparisons {
			p := buckets[b][0]
			out = append(out, findings.New(findings.EqualWeightOverlap, weightField(p.p),
				fmt.Sprintf("the %d NodePools of weight %d with these taints were compared only in part (%d pairs of requirements, the review's bound): "+
					"their requirements differ without an In value that keeps them apart, so pools that compete may be missing from the findings above",
					len(buckets[b]), p.weight, compared),
				"Keep pools apart by an In requirement on one label key (e.g. a team or workload label), or give them different weights.").
				On(PoolObject(p.p.Name)).As(findings.Note))
		}
	}
	return out
}

type weightPool struct {
	p      *Pool
	weight int64
	reqs   scheduling.Requirements // the pool's, without its own karpenter.sh/nodepool label
	key    string                  // canonical requirements: equal keys, equal requirements
}

func newWeightPool(p *Pool) *weightPool {
	var w int64 // unset is 0, as in Karpenter
	if p.Spec.Weight != nil {
		w = int64(*p.Spec.Weight)
	}
	reqs := scheduling.NewRequirements()
	for _, r := range p.Requirements.Values() {
		if r.Key != karpv1.NodePoolLabelKey {
			reqs.Add(r)
		}
	}
	return &weightPool{p: p, weight: w, reqs: reqs, key: requirementsKey(reqs)}
}

// maxComparisons bounds the requirement intersections per weight and taint set: pools that
// only NotIn, Exists or numeric bounds tell apart cannot be indexed and are compared pairwise.
var maxComparisons = 2_000_000

// competingGroups partitions pools of one weight and taint set into the groups whose members
// overlap, each in Karpenter's order (name descending); groups of one are dropped. compared
// counts the requirement intersections it computed.
func competingGroups(pools []*weightPool) (out [][]*weightPool, compared int) {
	// Identical requirements: one representative each.
	var reps []*weightPool
	members := map[string][]*weightPool{}
	for _, p := range pools {
		if _, ok := members[p.key]; !ok {
			reps = append(reps, p)
		}
		members[p.key] = append(members[p.key], p)
	}
	parent := make([]int, len(reps))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	// Self-overlap: requirements no node meets (Gt 8 with Lt 4) compete with nobody.
	satisfiable := make([]bool, len(reps))
	for i, r := range reps {
		satisfiable[i] = r.reqs.Intersects(r.reqs) == nil
	}
	idx := newReqIndex(reps)
	for i, r := range reps {
		if !satisfiable[i] {
			continue
		}
		for _, j := range idx.candidates(i) {
			if j <= i || !satisfiable[j] || find(i) == find(j) || compared >= maxComparisons {
				continue
			}
			compared++
			if r.reqs.Intersects(reps[j].reqs) == nil {
				parent[find(j)] = find(i)
			}
		}
	}
	byRoot := map[int][]*weightPool{}
	var roots []int
	for i, r := range reps {
		if !satisfiable[i] {
			continue
		}
		root := find(i)
		if _, ok := byRoot[root]; !ok {
			roots = append(roots, root)
		}
		byRoot[root] = append(byRoot[root], members[r.key]...)
	}
	for _, root := range roots {
		g := byRoot[root]
		// Karpenter's order: weight descending (equal here), then name descending; a name
		// twice is one object (KRP008 reports the duplicate).
		slices.SortStableFunc(g, func(a, b *weightPool) int { return strings.Compare(b.p.Name, a.p.Name) })
		g = slices.CompactFunc(g, func(a, b *weightPool) bool { return a.p.Name == b.p.Name })
		if len(g) > 1 {
			out = append(out, g)
		}
	}
	slices.SortFunc(out, func(a, b []*weightPool) int { return strings.Compare(b[0].p.Name, a[0].p.Name) })
	return out, compared
}

// reqIndex finds the pools that may overlap one pool without comparing it with all: a pool
// with key In (v1, v2) can only meet pools without the key, with a complement on it (NotIn,
// Exists, Gt, Lt), or with In sharing one of the values.
type reqIndex struct {
	n      int
	reps   []*weightPool
	in     map[string]map[string][]int // key, value: pools with In on key listing value
	open   map[string][]int            // key: pools with a complement on key
	has    map[string]map[int]bool     // key: pools with any requirement on key
	inKeys [][]string                  // per pool, its In keys
	lacks  map[string][]int            // key: pools without a requirement on it, once asked
}

func newReqIndex(reps []*weightPool) *reqIndex {
	x := &reqIndex{n: len(reps), reps: reps, in: map[string]map[string][]int{}, open: map[string][]int{}, has: map[string]map[int]bool{}, lacks: map[string][]int{}, inKeys: make([][]string, len(reps))}
	for i, r := range reps {
		for _, req := range r.reqs.Values() {
			if x.has[req.Key] == nil {
				x.has[req.Key] = map[int]bool{}
			}
			x.has[req.Key][i] = true
			switch req.Operator() {
			case corev1.NodeSelectorOpIn:
				if x.in[req.Key] == nil {
					x.in[req.Key] = map[string][]int{}
				}
				for _, v := range req.Values() {
					x.in[req.Key][v] = append(x.in[req.Key][v], i)
				}
				x.inKeys[i] = append(x.inKeys[i], req.Key)
			case corev1.NodeSelectorOpNotIn, corev1.NodeSelectorOpExists:
				x.open[req.Key] = append(x.open[req.Key], i)
			}
		}
		slices.Sort(x.inKeys[i])
	}
	return x
}

// candidates are the pools that may overlap pool i (a superset; Intersects decides), through
// its most selective In key; all pools when it has none.
func (x *reqIndex) candidates(i int) []int {
	best, bestN := "", -1
	for _, k := range x.inKeys[i] {
		// Pools without the key can meet any value of it.
		n := x.n - len(x.has[k]) + len(x.open[k])
		for _, v := range x.reps[i].reqs.Get(k).Values() {
			n += len(x.in[k][v])
		}
		if bestN < 0 || n < bestN {
			best, bestN = k, n
		}
	}
	if bestN < 0 || bestN >= x.n {
		all := make([]int, x.n)
		for j := range all {
			all[j] = j
		}
		return all
	}
	seen := map[int]bool{}
	var out []int
	add := func(j int) {
		if !seen[j] {
			seen[j] = true
			out = append(out, j)
		}
	}
	for _, v := range x.reps[i].reqs.Get(best).Values() {
		for _, j := range x.in[best][v] {
			add(j)
		}
	}
	for _, j := range x.open[best] {
		add(j)
	}
	// Pools that do not name the key at all (DoesNotExist on it excludes In on it). bestN < n
	// bounds this scan by the pools it adds plus those naming the key.
	if len(x.has[best]) < x.n {
		if x.lacks[best] == nil {
			for j := 0; j < x.n; j++ {
				if !x.has[best][j] {
					x.lacks[best] = append(x.lacks[best], j)
				}
			}
		}
		for _, j := range x.lacks[best] {
			add(j)
		}
	}
	slices.Sort(out)
	return out
}

// maxNamed bounds the names a group finding lists.
const maxNamed = 10

func groupFinding(g []*weightPool) findings.Finding {
	first, second := g[0], g[1]
	var f findings.Finding
	if len(g) == 2 {
		f = findings.New(findings.EqualWeightOverlap, weightField(second.p),
			fmt.Sprintf("NodePools %s and %s both have weight %d, the same taints and requirements that one node can meet; "+
				"Karpenter tries %s first only because its name sorts later, so %s gets just the pods %s cannot take",
				first.p.Name, second.p.Name, first.weight, first.p.Name, second.p.Name, first.p.Name),
			fmt.Sprintf("Give the pool that should win a higher spec.weight than the other, or make the requirements of %s and %s exclusive (e.g. different values of one label key).", first.p.Name, second.p.Name))
	} else {
		var names []string
		identical := true
		for i, p := range g {
			if i < maxNamed {
				names = append(names, p.p.Name)
			}
			identical = identical && p.key == first.key
		}
		list := strings.Join(names, ", ")
		if len(g) > maxNamed {
			list += fmt.Sprintf(" and %d more", len(g)-maxNamed)
		}
		how := "requirements that one node can meet together with at least one other of them"
		if identical {
			how = "identical requirements"
		}
		f = findings.New(findings.EqualWeightOverlap, weightField(second.p),
			fmt.Sprintf("%d NodePools (%s) all have weight %d, the same taints and %s; Karpenter tries them in descending order of name, "+
				"so %s gets the pods first and each of the others just what the pools tried before it cannot take",
				len(g), list, first.weight, how, first.p.Name),
			"Give the pool that should win a higher spec.weight than the others, or make their requirements exclusive (e.g. different values of one label key).")
	}
	for _, p := range g {
		if p != second {
			f.Related = append(f.Related, findings.Ref{Object: PoolObject(p.p.Name), Path: weightField(p.p)})
		}
	}
	return f.On(PoolObject(second.p.Name))
}

// requirementsKey is a canonical form of requirements: sorted keys, operators and values.
func requirementsKey(reqs scheduling.Requirements) string {
	var parts []string
	for _, r := range reqs.NodeSelectorRequirements() {
		vals := slices.Clone(r.Values)
		slices.Sort(vals)
		parts = append(parts, r.Key+"\x00"+string(r.Operator)+"\x00"+strings.Join(vals, "\x01"))
	}
	slices.Sort(parts)
	return strings.Join(parts, "\x02")
}

// weightField is where a finding about the pool's weight points: spec.weight, or the pool
// itself when the weight is unset.
func weightField(p *Pool) string {
	if p.Spec.Weight != nil {
		return "spec.weight"
	}
	return "metadata.name"
}

// taintKey is a canonical form of the taints that keep pods away (NoSchedule, NoExecute);
// PreferNoSchedule and startup taints do not decide which pods a pool can take.
func taintKey(p *Pool) string {
	var keys []string
	for _, t := range p.Spec.Template.Spec.Taints {
		if t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute {
			keys = append(keys, t.Key+"="+t.Value+":"+string(t.Effect))
		}
	}
	slices.Sort(keys)
	return strings.Join(slices.Compact(keys), ",")
}
