package optimal

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// exactCost is the cheapest placement of the pods the packing placed (per workload, its
// placed pods), found by trying, for every split of each zone-spread workload's pods over its
// class's zones that its maxSkew allows (counts per zone differing by at most maxSkew, not
// only the optimum's even split; the optimum's own split too, should it break the skew where a
// zone could not take its share), every partition of the pods into nodes and, per partition,
// every pool, instance type and offering each node may be: a node's pods must all be allowed
// on the offering (class, pool, and for spread pods the zone the split put them in) and fit
// its allocatable, hold at most one pod of a workload with hostname anti-affinity and at most
// k of one with hostname spread of maxSkew k, and each pool's nodes stay within its limits. Pods may use any pool their
// class allows, not only Karpenter's order, as the bounds do. Small inputs only: the
// partitions of n pods are Bell(n) (4,140 for 8), per combination of splits.
func exactCost(md *model, pk *packing) float64 {
	best := math.Inf(1)
	for _, pods := range splitPods(md, pk) {
		best = math.Min(best, exactCostOf(md, pods, best))
	}
	return best
}

// bfPod is one pod of the brute force: its workload and the zone a split put it in (-1: any).
type bfPod struct{ w, zone int }

// splitPods lists the placed pods once per combination of the spread workloads' splits.
func splitPods(md *model, pk *packing) [][]bfPod {
	placed := md.memberPlaced(pk)
	perZone := make([]map[int]int, len(md.workloads)) // the optimum's split
	for ui, u := range md.units {
		for mi, m := range u.members {
			if perZone[m.w] == nil {
				perZone[m.w] = map[int]int{}
			}
			perZone[m.w][u.zone] += placed[ui][mi]
		}
	}
	combos := [][]bfPod{nil}
	for w, sw := range md.workloads {
		if perZone[w] == nil {
			continue
		}
		total := 0
		for _, n := range perZone[w] {
			total += n
		}
		zones := md.classes[sw.class].zones
		var splits [][]int // counts per zone of zones; nil: not spread
		if _, free := perZone[w][-1]; free || sw.w.ZoneSpread <= 0 {
			splits = [][]int{nil}
		} else {
			own := make([]int, len(zones))
			for i, z := range zones {
				own[i] = perZone[w][z]
			}
			splits = skewSplits(total, len(zones), int(sw.w.ZoneSpread))
			if !slices.ContainsFunc(splits, func(s []int) bool { return slices.Equal(s, own) }) {
				splits = append(splits, own)
			}
		}
		var next [][]bfPod
		for _, c := range combos {
			for _, sp := range splits {
				pods := slices.Clone(c)
				if sp == nil {
					for range total {
						pods = append(pods, bfPod{w, -1})
					}
				}
				for i, n := range sp {
					for range n {
						pods = append(pods, bfPod{w, zones[i]})
					}
				}
				next = append(next, pods)
			}
		}
		combos = next
	}
	return combos
}

// skewSplits is every way of putting n pods in z zones whose counts differ by at most k.
func skewSplits(n, z, k int) [][]int {
	var out [][]int
	cur := make([]int, z)
	var rec func(i, left int)
	rec = func(i, left int) {
		if i == z-1 {
			cur[i] = left
			if slices.Max(cur)-slices.Min(cur) <= k {
				out = append(out, slices.Clone(cur))
			}
			return
		}
		for c := 0; c <= left; c++ {
			cur[i] = c
			rec(i+1, left-c)
		}
	}
	if z > 0 {
		rec(0, n)
	}
	return out
}

// exactCostOf is the cheapest placement of pods below best (best when none is).
func exactCostOf(md *model, pods []bfPod, best float64) float64 {
	type option struct {
		pool  *simPool
		t     int
		price float64
	}
	// options lists what a node holding these pods may be, cheapest offering per type.
	options := func(block []bfPod) []option {
		var out []option
		for _, p := range md.pools {
			for t, pt := range p.types {
				if !pt.usable {
					continue
				}
				mask := pt.all
				used := make([]int64, md.nres)
				perWorkload := map[int]int{}
				for _, pod := range block {
					sw := md.workloads[pod.w]
					m := md.classes[sw.class].masks[p.idx]
					if m == nil {
						mask = 0
						break
					}
					mask &= m[t]
					if pod.zone >= 0 {
						mask &= pt.zoneMask[pod.zone]
					}
					for r, v := range sw.d[:md.nres] {
						used[r] += v
					}
					// The per-node caps, from the workload itself, not from the dims that
					// encode them for the solver.
					perWorkload[pod.w]++
					if c := sw.w.PerNode(); c > 0 && perWorkload[pod.w] > c {
						mask = 0
					}
				}
				if mask == 0 || !fits(pt.alloc[:md.nres], nil, used, 1) {
					continue
				}
				out = append(out, option{p, t, cheapest(pt, mask)})
			}
		}
		return out
	}
	// typed picks an option per block within the pools' limits, cheapest first.
	var typed func(opts [][]option, i int, cost float64, use map[*simPool][]int64)
	typed = func(opts [][]option, i int, cost float64, use map[*simPool][]int64) {
		if cost >= best {
			return
		}
		if i == len(opts) {
			best = cost
			return
		}
		for _, o := range opts[i] {
			pt := o.pool.types[o.t]
			if use[o.pool] == nil {
				use[o.pool] = make([]int64, len(o.pool.limits))
			}
			ok := true
			for l, lim := range o.pool.limits {
				ok = ok && use[o.pool][l]+pt.capLimit[l] <= lim.limit
			}
			if !ok {
				continue
			}
			for l := range o.pool.limits {
				use[o.pool][l] += pt.capLimit[l]
			}
			typed(opts, i+1, cost+o.price, use)
			for l := range o.pool.limits {
				use[o.pool][l] -= pt.capLimit[l]
			}
		}
	}
	var blocks [][]bfPod
	var partition func(i int)
	partition = func(i int) {
		if i == len(pods) {
			opts := make([][]option, len(blocks))
			for b, block := range blocks {
				if opts[b] = options(block); len(opts[b]) == 0 {
					return
				}
			}
			typed(opts, 0, 0, map[*simPool][]int64{})
			return
		}
		for b := range blocks {
			blocks[b] = append(blocks[b], pods[i])
			if len(options(blocks[b])) > 0 {
				partition(i + 1)
			}
			blocks[b] = blocks[b][:len(blocks[b])-1]
		}
		blocks = append(blocks, []bfPod{pods[i]})
		partition(i + 1)
		blocks = blocks[:len(blocks)-1]
	}
	partition(0)
	return best
}

// smallInput draws an input of at most 8 pods on one or two pools of a few small sizes, in
// westeurope (every zone assumed, all alike) or eastus (zones listed, its GPU sizes missing in
// some), with zone spread (maxSkew 1 or 2), hostname anti-affinity and spread (maxSkew 2),
// zone-pinned pools, daemon overhead (on every pool, or one pool's own) and limits.
func smallInput(rng *rand.Rand) simmodel.SimulationInput {
	region := []string{"westeurope", "eastus"}[rng.IntN(2)]
	in := simmodel.SimulationInput{Region: region, Seed: rng.Uint64()}
	menu := []string{"Standard_D2s_v5", "Standard_D4s_v5", "Standard_D8s_v5", "Standard_E2s_v5", "Standard_E4s_v5", "Standard_F2s_v2", "Standard_F4s_v2", "Standard_D2ps_v5", "Standard_B2s"}
	for i := 0; i < 1+rng.IntN(2); i++ {
		var names []string
		for len(names) < 2 {
			names = nil
			for _, s := range menu {
				if rng.IntN(3) == 0 {
					names = append(names, s)
				}
			}
		}
		reqs := []karpv1.NodeSelectorRequirementWithMinValues{onDemandOnly, sizes(names...)}
		if rng.IntN(4) == 0 {
			reqs = append(reqs, zonesIn(region+"-1", region+"-2"))
		}
		var limits corev1.ResourceList
		if rng.IntN(4) == 0 {
			limits = corev1.ResourceList{corev1.ResourceCPU: *resource.NewQuantity(int64(8+rng.IntN(16)), resource.DecimalSI)}
		}
		in.Pools = append(in.Pools, testPool(fmt.Sprintf("pool%d", i), int32(rng.IntN(2)*10), limits, nil, reqs...))
	}
	// eastus's GPU sizes are where its zones differ: NC6s_v3 is regional only ("0"),
	// NC24ads_A100_v4 in "0" and eastus-3, NC48ads_A100_v4 in all four.
	gpu := region == "eastus" && rng.IntN(3) == 0
	if gpu {
		in.Pools = append(in.Pools, testPool("gpu", 0, nil, nil, onDemandOnly, sizes("Standard_NC6s_v3", "Standard_NC24ads_A100_v4", "Standard_NC48ads_A100_v4")))
	}
	left := 3 + rng.IntN(6)
	for i := 0; left > 0; i++ {
		n := min(left, 1+rng.IntN(4))
		left -= n
		w := pods(fmt.Sprintf("w%d", i), n, fmt.Sprintf("%dm", 100+rng.IntN(3000)), fmt.Sprintf("%dMi", 128+rng.IntN(12*1024)))
		if gpu && rng.IntN(2) == 0 {
			w.Requests["nvidia.com/gpu"] = resource.MustParse("1")
		}
		if rng.IntN(2) == 0 {
			w.ZoneSpread = int32(1 + rng.IntN(2))
		}
		if rng.IntN(4) == 0 {
			w.HostnameAntiAffinity = true
		} else if rng.IntN(4) == 0 {
			w.HostnameSpread = 2
		}
		in.Workloads = append(in.Workloads, w)
	}
	switch rng.IntN(3) {
	case 0:
		in.DaemonOverhead = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("300Mi")}
	case 1:
		// One pool's own DaemonSets, the others' none.
		in.PoolDaemonOverhead = map[string]corev1.ResourceList{"pool0": {corev1.ResourceCPU: resource.MustParse("700m"), corev1.ResourceMemory: resource.MustParse("1Gi")}}
	}
	return in
}

// evenSplitBound is the LP bound on the groups the bounds had before boundGroups: each zone
// pinned the pods of the optimum's even split. Valid only for that split; the tests show that
// the brute force rejects it.
func evenSplitBound(md *model, pk *packing) float64 {
	var groups []*boundGroup
	for _, u := range md.units {
		if n := pk.placed(u); n > 0 {
			groups = append(groups, md.boundGroup(u, n))
		}
	}
	b, _ := md.solveBound(groups, md.boundColumns(groups, md.pools), true)
	return b
}

// TestBoundsAgainstBruteForce: on seeded small inputs, no bound (the LP over node types, the
// configuration LP's, nor the configuration LP's of the zone relaxation) exceeds the cheapest
// placement of the same pods found by trying every one, over every split of the spread pods
// that maxSkew allows (exactCost). The inputs must exercise zones: most have zone-pinned pod
// groups, as zone spread makes them, some with maxSkew 2, some on eastus's GPU sizes, whose
// zones differ. The check must have teeth: the bound of the optimum's even split (valid for
// that split only) and a bound raised 20 % must each exceed the exact optimum somewhere.
func TestBoundsAgainstBruteForce(t *testing.T) {
	pinned, tight, evenAbove, raisedAbove := 0, 0, 0, 0
	const inputs = 60
	for seed := uint64(1); seed <= inputs; seed++ {
		in := smallInput(rand.New(rand.NewPCG(seed, 11)))
		md := compile(testSolver, in.Region, in)
		pk := md.pack(0)
		exact := exactCost(md, pk)
		if found := pk.cost(); exact > found+1e-9 {
			t.Fatalf("seed %d: brute force %v above the packing found %v: the brute force misses placements", seed, exact, found)
		}
		zones := map[int]bool{}
		for _, u := range md.units {
			if u.zone >= 0 && pk.placed(u) > 0 {
				zones[u.zone] = true
			}
		}
		if len(zones) > 1 {
			pinned++
		}
		above := func(b float64) bool { return b > exact*(1+1e-9)+1e-9 }
		for _, config := range []bool{false, true} {
			md.configBound = config
			bound, _ := md.lowerBound(pk)
			if above(bound) {
				t.Errorf("seed %d (config %v): bound %v above the exact optimum %v", seed, config, bound, exact)
			}
			if !config && bound >= 0.9*exact {
				tight++
			}
			if !config && above(1.2*bound) {
				raisedAbove++
			}
		}
		if above(evenSplitBound(md, pk)) {
			evenAbove++
		}
		// The configuration bound of the zone relaxation, which inputs this small never need
		// (their groups are within maxPatternGroups), computed as configurationBound does.
		groups := md.boundGroups(pk)
		if free, ok := md.zoneRelaxed(groups); ok {
			cg := md.newColumnGeneration(free, md.boundColumns(free, md.pools))
			if cg == nil {
				t.Fatalf("seed %d: no configuration LP of the zone relaxation", seed)
			}
			if err := cg.run(defaultCGBudget, true); err != nil {
				t.Fatal(err)
			}
			if bound := cg.certify(defaultCGBudget); above(bound) {
				t.Errorf("seed %d: the zone relaxation's configuration bound %v above the exact optimum %v", seed, bound, exact)
			}
		}
	}
	if pinned < inputs/3 {
		t.Errorf("only %d of %d inputs have pods pinned to more than one zone", pinned, inputs)
	}
	if evenAbove == 0 || raisedAbove == 0 {
		t.Errorf("the brute force rejects the even split's bound on %d inputs and the bound raised 20 %% on %d: it must reject both somewhere", evenAbove, raisedAbove)
	}
	t.Logf("%d of %d inputs with pods pinned to several zones; the LP bound within 10 %% of the exact optimum on %d; the even split's bound above it on %d, the bound raised 20 %% on %d", pinned, inputs, tight, evenAbove, raisedAbove)
}

// TestBoundsHoldForUnevenSplits: four 1-GPU pods spread with maxSkew 2 over eastus's four
// zones on NC6s_v3 (1 GPU, $3.06/h, regional "0" only) and NC48ads_A100_v4 (2 GPUs, $7.346/h,
// every zone). The optimum splits them 1/1/1/1 ($3.06 + 3 × $7.346 = $25.098/h), but maxSkew 2
// also allows 2/2/0/0: two NC6s_v3 in "0" and one NC48ads_A100_v4 hold them for $13.466/h.
// The bound of the even split ($25.098/h) is above that, so it was no bound; both bounds must
// be at most $13.466/h. With maxSkew 1 the even split is the only one, and the bound keeps it.
func TestBoundsHoldForUnevenSplits(t *testing.T) {
	for _, tc := range []struct {
		skew         int32
		exact, bound float64
	}{{2, 13.466, 4 * 3.06}, {1, 25.098, 25.098}} {
		w := pods("gpu", 4, "1", "4Gi")
		w.Requests["nvidia.com/gpu"] = resource.MustParse("1")
		w.ZoneSpread = tc.skew
		in := simmodel.SimulationInput{Region: "eastus", Pools: []simmodel.SimPool{testPool("gpu", 0, nil, nil, onDemandOnly, sizes("Standard_NC6s_v3", "Standard_NC48ads_A100_v4"))}, Workloads: []simmodel.Workload{w}}
		md := compile(testSolver, in.Region, in)
		pk := md.pack(0)
		exact := exactCost(md, pk)
		if math.Abs(exact-tc.exact) > 1e-6 {
			t.Fatalf("maxSkew %d: exact optimum %v, want %v", tc.skew, exact, tc.exact)
		}
		if tc.skew == 2 {
			if even := evenSplitBound(md, pk); even <= exact*(1+1e-6) {
				t.Fatalf("maxSkew 2: the even split's bound %v is not above the exact optimum %v: the case does not test the splits", even, exact)
			}
		}
		for _, config := range []bool{false, true} {
			md.configBound = config
			bound, _ := md.lowerBound(pk)
			if bound > exact*(1+1e-9) || bound < tc.bound*(1-1e-6) {
				t.Errorf("maxSkew %d (config %v): bound %v, want within [%v, %v]", tc.skew, config, bound, tc.bound, exact)
			}
		}
	}
}

// boundOf is the LP bound Simulate reports for in, and whether every pod was placed.
func boundOf(t *testing.T, in simmodel.SimulationInput) (float64, bool) {
	t.Helper()
	sim, err := Simulate(testSolver, in)
	if err != nil {
		t.Fatal(err)
	}
	return sim.LowerBound, len(sim.Unschedulable) == 0
}

// TestZoneSpreadDoesNotLowerTheBound: in westeurope every size is offered in every zone at one
// price, so spreading a workload's pods over the zones only constrains the placement, and the
// bound with the spread must be no lower than the bound on the same pods without it. Before
// the LP's cuts took the sets of groups no offering of a size serves, the spread pods' per-zone
// groups made every cut mix pods too large for a cheap size with other zones' pods it holds,
// and the bound fell (the wide example's, from $34.84/h to $30.49/h).
func TestZoneSpreadDoesNotLowerTheBound(t *testing.T) {
	families := [][]string{{"D", "E", "F", "B"}, {"D"}, {"E", "F"}}
	compared := 0
	for seed := uint64(1); seed <= 12; seed++ {
		rng := rand.New(rand.NewPCG(seed, 5))
		fam := karpv1.NodeSelectorRequirementWithMinValues{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpIn, Values: families[rng.IntN(len(families))]}
		in := simmodel.SimulationInput{Region: "westeurope", Seed: seed, Pools: []simmodel.SimPool{testPool("general", 0, nil, nil, onDemandOnly, fam)}}
		for i := 0; i < 4+rng.IntN(12); i++ {
			w := pods(fmt.Sprintf("w%d", i), 1+rng.IntN(40), fmt.Sprintf("%dm", []int{100, 250, 500, 1000, 2000, 4000, 7000}[rng.IntN(7)]), fmt.Sprintf("%dMi", []int{128, 512, 2048, 4096, 8192, 32768}[rng.IntN(6)]))
			if rng.IntN(3) == 0 {
				w.ZoneSpread = 1
			}
			in.Workloads = append(in.Workloads, w)
		}
		spread, ok1 := boundOf(t, in)
		in.Workloads = append([]simmodel.Workload(nil), in.Workloads...)
		for i := range in.Workloads {
			in.Workloads[i].ZoneSpread = 0
		}
		free, ok2 := boundOf(t, in)
		if !ok1 || !ok2 {
			continue
		}
		compared++
		if spread < free*(1-1e-6) {
			t.Errorf("seed %d: bound %v with zone spread, %v without: the spread lowered it", seed, spread, free)
		}
	}
	if compared < 10 {
		t.Errorf("only %d inputs compared", compared)
	}
}
