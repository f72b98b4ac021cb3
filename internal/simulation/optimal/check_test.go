package optimal

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// checkSimulation verifies what any simulation must satisfy, from its output alone: every pod
// is accounted for; every node's requests (pods and daemons) fit its allocatable and it holds
// no more of a workload's pods than its hostname anti-affinity or spread allows; every pod
// is on a node of a pool whose taints it tolerates, with an instance type and offering its
// requirements and the pool's admit, priced as the catalog prices that offering; the pools'
// limits hold; the cost adds up; and the lower bound does not exceed it.
func checkSimulation(t testing.TB, s *analysis.Analyzer, in simmodel.SimulationInput, sim *simmodel.Simulation) {
	t.Helper()
	byName := map[string]simmodel.Workload{}
	total := 0
	for _, w := range in.Workloads {
		byName[w.Name] = w
		total += w.Count
	}
	pools := map[string]simmodel.SimPool{}
	for _, p := range in.Pools {
		pools[p.Pool.Name] = p
	}
	scheduled, cost := 0, 0.0
	used := map[string]corev1.ResourceList{}
	for i, n := range sim.Nodes {
		sp, ok := pools[n.Pool]
		if !ok {
			t.Fatalf("node %d on unknown pool %q", i, n.Pool)
		}
		it := s.RegionTypes(in.Region, sp.NodeClass).ByName(n.SKU)
		if it == nil {
			t.Fatalf("node %d: unknown SKU %s", i, n.SKU)
			return
		}
		priced := false
		for _, o := range it.Offerings {
			if o.Available && o.Zone() == n.Zone && o.CapacityType() == n.CapacityType && o.Price == n.HourlyPrice {
				priced = true
			}
		}
		if !priced {
			t.Fatalf("node %d: %s has no available %s offering in zone %s at %v", i, n.SKU, n.CapacityType, n.Zone, n.HourlyPrice)
		}
		daemon := in.DaemonOverhead
		if rl, ok := in.PoolDaemonOverhead[n.Pool]; ok {
			daemon = rl
		}
		requests := resources.Merge(daemon)
		for _, pc := range n.Pods {
			w, ok := byName[pc.Workload]
			if !ok {
				t.Fatalf("node %d: unknown workload %q", i, pc.Workload)
			}
			// Hostname anti-affinity: one of the workload's pods per node; hostname spread
			// with maxSkew k: at most k (Karpenter's minimum over hostnames is 0).
			if c := w.PerNode(); c > 0 && pc.Count > c {
				t.Fatalf("node %d: %d pods of %s, which allows %d per node (anti-affinity %v, hostname maxSkew %d)", i, pc.Count, pc.Workload, c, w.HostnameAntiAffinity, w.HostnameSpread)
			}
			pod := w.Pod(0)
			if err := scheduling.Taints(sp.Pool.Spec.Template.Spec.Taints).ToleratesPod(pod); err != nil {
				t.Fatalf("node %d: %s does not tolerate pool %s: %v", i, pc.Workload, n.Pool, err)
			}
			merged := scheduling.NewRequirements(sp.Pool.Requirements.Values()...)
			merged.Add(scheduling.NewStrictPodRequirements(pod).Values()...)
			ok = false
			for _, o := range s.RegionTypes(in.Region, sp.NodeClass).Admissible(it, merged) {
				if o.Zone() == n.Zone && o.CapacityType() == n.CapacityType {
					ok = true
				}
			}
			if !ok {
				t.Fatalf("node %d: %s (%s, %s) does not admit %s", i, n.SKU, n.Zone, n.CapacityType, pc.Workload)
			}
			// Admissible leaves the zone unjudged for regional-only sizes of unknown zones;
			// Karpenter never launches a node in a zone the pool or the pod excludes.
			if zr := merged.Get(corev1.LabelTopologyZone); merged.Has(corev1.LabelTopologyZone) && n.Zone != "" && !zr.Has(n.Zone) {
				t.Fatalf("node %d: %s is in zone %q, which %s's requirements on pool %s exclude (%s)", i, n.SKU, n.Zone, pc.Workload, n.Pool, zr)
			}
			for k := 0; k < pc.Count; k++ {
				requests = resources.Merge(requests, resources.RequestsForPods(pod))
			}
			scheduled += pc.Count
		}
		if !resources.Fits(requests, it.Allocatable()) {
			t.Fatalf("node %d: requests %v exceed allocatable %v of %s", i, requests, it.Allocatable(), n.SKU)
		}
		for name, q := range n.Requested {
			if r := requests[name]; q.Cmp(r) != 0 && !(name == corev1.ResourcePods && q.Value() == r.Value()) {
				t.Fatalf("node %d: reported %s requested %v, pods and daemons request %v", i, name, q.String(), r.String())
			}
		}
		cap := it.Capacity.DeepCopy()
		cap["nodes"] = resource.MustParse("1")
		used[n.Pool] = resources.Merge(used[n.Pool], cap)
		cost += n.HourlyPrice
	}
	for name, p := range pools {
		for r, limit := range p.Pool.Spec.Limits {
			if u := used[name][r]; u.Cmp(limit) > 0 {
				t.Fatalf("pool %s uses %s %v over its limit %v", name, r, u.String(), limit.String())
			}
		}
	}
	unsched := 0
	for _, u := range sim.Unschedulable {
		unsched += u.Count
		if u.Reason == "" {
			t.Fatalf("%s unschedulable without a reason", u.Workload)
		}
	}
	if scheduled != sim.ScheduledPods || scheduled+unsched != total {
		t.Fatalf("scheduled %d (reported %d) + unschedulable %d != %d pods", scheduled, sim.ScheduledPods, unsched, total)
	}
	if math.Abs(cost-sim.HourlyCost) > 1e-6 {
		t.Fatalf("nodes cost %v, reported %v", cost, sim.HourlyCost)
	}
	if sim.LowerBound > sim.HourlyCost*(1+1e-9)+1e-9 {
		t.Fatalf("lower bound %v above the cost %v", sim.LowerBound, sim.HourlyCost)
	}
}

// randomInput draws NodePools and workloads across the shapes the simulation handles: sizes,
// families, architectures, capacity types, zones, weights, limits, taints, GPUs, selectors,
// zone spread, hostname anti-affinity and spread, and daemon overhead.
func randomInput(rng *rand.Rand) simmodel.SimulationInput {
	in := simmodel.SimulationInput{Region: []string{"westeurope", "eastus"}[rng.IntN(2)], Seed: rng.Uint64(), ConfigurationBound: rng.IntN(2) == 0}
	menu := []karpv1.NodeSelectorRequirementWithMinValues{
		{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpIn, Values: []string{"D"}},
		{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpIn, Values: []string{"B", "E", "F"}},
		{Key: "karpenter.azure.com/sku-cpu", Operator: corev1.NodeSelectorOpLt, Values: []string{"9"}},
		{Key: "karpenter.azure.com/sku-cpu", Operator: corev1.NodeSelectorOpGt, Values: []string{"15"}},
		{Key: corev1.LabelArchStable, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.ArchitectureArm64}},
		{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.CapacityTypeSpot}},
		onDemandOnly,
		{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"eastus-1", "eastus-2"}},
		{Key: "karpenter.azure.com/sku-gpu-count", Operator: corev1.NodeSelectorOpDoesNotExist},
	}
	for i := 0; i < 1+rng.IntN(3); i++ {
		var reqs []karpv1.NodeSelectorRequirementWithMinValues
		for _, r := range menu {
			if rng.IntN(4) == 0 {
				reqs = append(reqs, r)
			}
		}
		var limits corev1.ResourceList
		if rng.IntN(3) == 0 {
			limits = corev1.ResourceList{corev1.ResourceCPU: *resource.NewQuantity(int64(4+rng.IntN(200)), resource.DecimalSI)}
			if rng.IntN(2) == 0 {
				limits["nodes"] = *resource.NewQuantity(int64(1+rng.IntN(10)), resource.DecimalSI)
			}
		}
		var taints []corev1.Taint
		if rng.IntN(4) == 0 {
			taints = []corev1.Taint{{Key: "dedicated", Value: "x", Effect: corev1.TaintEffectNoSchedule}}
		}
		in.Pools = append(in.Pools, testPool(fmt.Sprintf("pool%d", i), int32(rng.IntN(3)*10), limits, taints, reqs...))
	}
	for i := 0; i < 1+rng.IntN(6); i++ {
		w := simmodel.Workload{
			Name:  fmt.Sprintf("w%d", i),
			Count: rng.IntN(60),
			Requests: corev1.ResourceList{
				corev1.ResourceCPU:    *resource.NewMilliQuantity(int64(50+rng.IntN(8000)), resource.DecimalSI),
				corev1.ResourceMemory: *resource.NewQuantity(int64(64+rng.IntN(32*1024))<<20, resource.BinarySI),
			},
		}
		if rng.IntN(8) == 0 {
			w.Requests["nvidia.com/gpu"] = resource.MustParse("1")
		}
		if rng.IntN(4) == 0 {
			w.ZoneSpread = int32(1 + rng.IntN(2))
		}
		switch rng.IntN(8) {
		case 0:
			w.HostnameAntiAffinity = true
		case 1:
			w.HostnameSpread = int32(1 + rng.IntN(4))
		}
		if rng.IntN(5) == 0 {
			w.NodeSelector = map[string]string{corev1.LabelArchStable: []string{karpv1.ArchitectureAmd64, karpv1.ArchitectureArm64}[rng.IntN(2)]}
		}
		if rng.IntN(4) == 0 {
			w.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpExists}}
		}
		in.Workloads = append(in.Workloads, w)
	}
	switch rng.IntN(3) {
	case 0:
		in.DaemonOverhead = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m"), corev1.ResourceMemory: resource.MustParse("300Mi"), corev1.ResourcePods: resource.MustParse("3")}
	case 1:
		in.PoolDaemonOverhead = map[string]corev1.ResourceList{"pool0": {corev1.ResourceCPU: resource.MustParse("900m"), corev1.ResourceMemory: resource.MustParse("1Gi"), corev1.ResourcePods: resource.MustParse("4")}}
	}
	return in
}

// TestSimulateInvariants: on seeded random inputs every invariant holds, the lower bound (the
// LP's or, for half the inputs, the configuration LP's) never exceeds the cost, and the same
// input always gives the same result.
func TestSimulateInvariants(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		in := randomInput(rand.New(rand.NewPCG(seed, 7)))
		sim, err := Simulate(testSolver, in)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkSimulation(t, testSolver, in, sim)
		again, _ := Simulate(testSolver, in)
		if !reflect.DeepEqual(sim, again) {
			t.Fatalf("seed %d: two runs differ", seed)
		}
	}
}

func FuzzSimulate(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42, 1 << 40} {
		f.Add(s, uint16(100))
	}
	f.Fuzz(func(t *testing.T, seed uint64, scale uint16) {
		in := randomInput(rand.New(rand.NewPCG(seed, uint64(scale))))
		for i := range in.Workloads {
			in.Workloads[i].Count = in.Workloads[i].Count * int(scale%400) / 100
		}
		sim, err := Simulate(testSolver, in)
		if err != nil {
			t.Fatal(err)
		}
		checkSimulation(t, testSolver, in, sim)
	})
}
