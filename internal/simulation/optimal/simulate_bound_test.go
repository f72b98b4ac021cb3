package optimal

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// exactCost is the cheapest placement of the pods the packing placed (per unit, its count
// less what is pending), found by trying every partition of the pods into nodes and, per
// partition, every pool, instance type and offering each node may be: a node's pods must all
// be allowed on the offering (class, pool and zone: a zone-pinned unit's pods only in its
// zone) and fit its allocatable, and each pool's nodes stay within its limits. Pods may use
// any pool their class allows, not only Karpenter's order, as the bounds do. Small inputs
// only: the partitions of n pods are Bell(n) (4,140 for 8).
func exactCost(pb *problem) float64 {
	var pods []*unit
	for _, u := range pb.units {
		for k := 0; k < u.count-u.rem; k++ {
			pods = append(pods, u)
		}
	}
	type option struct {
		pool  *simPool
		t     int
		price float64
	}
	// options lists what a node holding these pods may be, cheapest offering per type.
	options := func(block []*unit) []option {
		var out []option
		for _, p := range pb.pools {
			for t, pt := range p.types {
				if !pt.usable {
					continue
				}
				mask := pt.all
				used := make([]int64, len(pb.dims))
				for _, u := range block {
					if pb.classes[pb.workloads[u.w].class].masks[p.idx] == nil {
						mask = 0
						break
					}
					mask &= pb.unitMask(u, p, t)
					for r, v := range pb.workloads[u.w].d {
						used[r] += v
					}
				}
				if mask == 0 || !fits(pt.alloc, nil, used, 1) {
					continue
				}
				out = append(out, option{p, t, cheapest(pt, mask)})
			}
		}
		return out
	}
	best := math.Inf(1)
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
	var blocks [][]*unit
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
		blocks = append(blocks, []*unit{pods[i]})
		partition(i + 1)
		blocks = blocks[:len(blocks)-1]
	}
	partition(0)
	return best
}

// smallInput draws an input of at most 8 pods on one or two pools of a few small sizes, in
// westeurope (every zone assumed, all alike) or eastus (zones listed, some sizes missing in
// some), with zone spread, zone-pinned pools, daemon overhead and limits.
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
	left := 3 + rng.IntN(6)
	for i := 0; left > 0; i++ {
		n := min(left, 1+rng.IntN(4))
		left -= n
		w := pods(fmt.Sprintf("w%d", i), n, fmt.Sprintf("%dm", 100+rng.IntN(3000)), fmt.Sprintf("%dMi", 128+rng.IntN(12*1024)))
		if rng.IntN(2) == 0 {
			w.ZoneSpread = 1
		}
		in.Workloads = append(in.Workloads, w)
	}
	if rng.IntN(3) == 0 {
		in.DaemonOverhead = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("300Mi")}
	}
	return in
}

// TestBoundsAgainstBruteForce: on seeded small inputs, no bound (the LP over node types, the
// configuration LP's, nor the configuration LP's of the zone relaxation) exceeds the cheapest
// placement of the same pods found by trying every one. The inputs must exercise zones: most
// have zone-pinned pod groups, as zone spread makes them.
func TestBoundsAgainstBruteForce(t *testing.T) {
	pinned, tight := 0, 0
	const inputs = 60
	for seed := uint64(1); seed <= inputs; seed++ {
		in := smallInput(rand.New(rand.NewPCG(seed, 11)))
		pb := compile(testSolver, in.Region, in)
		pb.run(0)
		exact := exactCost(pb)
		if found := pb.cost(); exact > found+1e-9 {
			t.Fatalf("seed %d: brute force %v above the packing found %v: the brute force misses placements", seed, exact, found)
		}
		zones := map[int]bool{}
		for _, u := range pb.units {
			if u.zone >= 0 && u.count > u.rem {
				zones[u.zone] = true
			}
		}
		if len(zones) > 1 {
			pinned++
		}
		for _, config := range []bool{false, true} {
			pb.configBound = config
			bound, _ := pb.lowerBound()
			if bound > exact*(1+1e-9)+1e-9 {
				t.Errorf("seed %d (config %v): bound %v above the exact optimum %v", seed, config, bound, exact)
			}
			if !config && bound >= 0.9*exact {
				tight++
			}
		}
		// The configuration bound of the zone relaxation, which inputs this small never need
		// (their groups are within maxPatternGroups), computed as configurationBound does.
		groups := pb.boundGroups()
		if free, ok := zoneRelaxed(groups); ok {
			cg := pb.newColumnGeneration(free, pb.boundColumns(free, pb.pools))
			if cg == nil {
				t.Fatalf("seed %d: no configuration LP of the zone relaxation", seed)
			}
			cg.seed(pb.nodes)
			if err := cg.run(defaultCGBudget, true); err != nil {
				t.Fatal(err)
			}
			if bound := cg.certify(defaultCGBudget); bound > exact*(1+1e-9)+1e-9 {
				t.Errorf("seed %d: the zone relaxation's configuration bound %v above the exact optimum %v", seed, bound, exact)
			}
		}
	}
	if pinned < inputs/3 {
		t.Errorf("only %d of %d inputs have pods pinned to more than one zone", pinned, inputs)
	}
	t.Logf("%d of %d inputs with pods pinned to several zones; the LP bound within 10 %% of the exact optimum on %d", pinned, inputs, tight)
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
