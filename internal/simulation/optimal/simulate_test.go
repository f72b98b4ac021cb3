package optimal

import (
	"math"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

var testSolver = analysis.New(catalog.Default())

func testPool(name string, weight int32, limits corev1.ResourceList, taints []corev1.Taint, reqs ...karpv1.NodeSelectorRequirementWithMinValues) simmodel.SimPool {
	np := &karpv1.NodePool{}
	np.Name = name
	if weight != 0 {
		np.Spec.Weight = &weight
	}
	np.Spec.Limits = karpv1.Limits(limits)
	np.Spec.Template.Spec.Taints = taints
	np.Spec.Template.Spec.Requirements = reqs
	return simmodel.SimPool{Pool: analysis.NewPool(np)}
}

func sizes(names ...string) karpv1.NodeSelectorRequirementWithMinValues {
	return karpv1.NodeSelectorRequirementWithMinValues{Key: corev1.LabelInstanceTypeStable, Operator: corev1.NodeSelectorOpIn, Values: names}
}

var onDemandOnly = karpv1.NodeSelectorRequirementWithMinValues{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.CapacityTypeOnDemand}}

func pods(name string, n int, cpu, mem string) simmodel.Workload {
	return simmodel.Workload{Name: name, Count: n, Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}}
}

func simulate(t *testing.T, in simmodel.SimulationInput) *simmodel.Simulation {
	t.Helper()
	if in.Region == "" {
		in.Region = "westeurope"
	}
	sim, err := Simulate(testSolver, in)
	if err != nil {
		t.Fatal(err)
	}
	checkSimulation(t, testSolver, in, sim)
	return sim
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Standard_D4s_v5 in westeurope: 4 vCPU, 3860m allocatable (kube-reserved 140m), $0.23/h.
func TestSimulateOneSize(t *testing.T) {
	sim := simulate(t, simmodel.SimulationInput{
		Pools:     []simmodel.SimPool{testPool("d4", 0, nil, nil, onDemandOnly, sizes("Standard_D4s_v5"))},
		Workloads: []simmodel.Workload{pods("web", 10, "1", "1Gi")},
	})
	// Three 1-cpu pods fit in 3860m, so 10 pods need 4 nodes.
	if len(sim.Nodes) != 4 || !near(sim.HourlyCost, 4*0.23) {
		t.Fatalf("got %d nodes for $%v, want 4 for $0.92", len(sim.Nodes), sim.HourlyCost)
	}
	// The bound is 10/3 fractional nodes: pods are indivisible, 3 per node.
	if math.Abs(sim.LowerBound-10.0/3*0.23) > 1e-6 {
		t.Fatalf("lower bound %v, want %v", sim.LowerBound, 10.0/3*0.23)
	}
	if want := 10.0 / (4 * 3.86); math.Abs(sim.Utilisation.CPU-want) > 1e-9 {
		t.Fatalf("cpu utilisation %v, want %v", sim.Utilisation.CPU, want)
	}
	if sim.ScheduledPods != 10 || len(sim.Unschedulable) != 0 {
		t.Fatalf("scheduled %d, unschedulable %v", sim.ScheduledPods, sim.Unschedulable)
	}
}

func TestSimulatePicksTheCheapestMix(t *testing.T) {
	// Four 1-cpu pods: a D8s_v5 ($0.46, 7820m) or two D4s_v5 ($0.46) hold them, but a D4s_v5
	// with three and a D2s_v5 (1900m, $0.115) with one cost $0.345.
	sim := simulate(t, simmodel.SimulationInput{
		Pools:     []simmodel.SimPool{testPool("d", 0, nil, nil, onDemandOnly, sizes("Standard_D2s_v5", "Standard_D4s_v5", "Standard_D8s_v5"))},
		Workloads: []simmodel.Workload{pods("web", 4, "1", "1Gi")},
	})
	if !near(sim.HourlyCost, 0.23+0.115) {
		t.Fatalf("cost %v with %+v, want 0.345 (D4s_v5 + D2s_v5)", sim.HourlyCost, sim.Nodes)
	}
}

func TestSimulateSizesTheLastNode(t *testing.T) {
	// 7 pods fill a D8s_v5 (7820m) and the eighth needs a node of its own, sized for what is
	// left: a D2s_v5, not another D8s_v5.
	sim := simulate(t, simmodel.SimulationInput{
		Pools:     []simmodel.SimPool{testPool("d", 0, nil, nil, onDemandOnly, sizes("Standard_D2s_v5", "Standard_D8s_v5"))},
		Workloads: []simmodel.Workload{pods("web", 8, "1", "1Gi")},
	})
	if !near(sim.HourlyCost, 0.46+0.115) {
		t.Fatalf("cost %v with %+v, want 0.575", sim.HourlyCost, sim.Nodes)
	}
}

func TestSimulateTaintsAndTolerations(t *testing.T) {
	taint := []corev1.Taint{{Key: "dedicated", Value: "batch", Effect: corev1.TaintEffectNoSchedule}}
	batch := pods("batch", 3, "1", "1Gi")
	batch.Tolerations = []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "batch", Effect: corev1.TaintEffectNoSchedule}}
	sim := simulate(t, simmodel.SimulationInput{
		Pools: []simmodel.SimPool{
			testPool("tainted", 10, nil, taint, onDemandOnly, sizes("Standard_D8s_v5")),
			testPool("general", 0, nil, nil, onDemandOnly, sizes("Standard_D4s_v5")),
		},
		Workloads: []simmodel.Workload{pods("web", 3, "1", "1Gi"), batch},
	})
	for _, n := range sim.Nodes {
		for _, pc := range n.Pods {
			// The tolerating pods take the higher-weight tainted pool; the others cannot.
			if want := map[string]string{"web": "general", "batch": "tainted"}[pc.Workload]; n.Pool != want {
				t.Fatalf("%s pods on pool %s, want %s", pc.Workload, n.Pool, want)
			}
		}
	}
	only := simulate(t, simmodel.SimulationInput{
		Pools:     []simmodel.SimPool{testPool("tainted", 0, nil, taint, onDemandOnly, sizes("Standard_D8s_v5"))},
		Workloads: []simmodel.Workload{pods("web", 2, "1", "1Gi")},
	})
	if len(only.Unschedulable) != 1 || !strings.Contains(only.Unschedulable[0].Reason, "did not tolerate") {
		t.Fatalf("unschedulable %+v, want the taint named", only.Unschedulable)
	}
}

func TestSimulateWeights(t *testing.T) {
	in := simmodel.SimulationInput{
		Pools: []simmodel.SimPool{
			testPool("cheap", 0, nil, nil, onDemandOnly, sizes("Standard_D4s_v5")),
			testPool("preferred", 5, nil, nil, onDemandOnly, sizes("Standard_E4s_v5")),
		},
		Workloads: []simmodel.Workload{pods("web", 6, "1", "1Gi")},
	}
	for _, n := range simulate(t, in).Nodes {
		if n.Pool != "preferred" {
			t.Fatalf("node on %s: the higher weight wins even when it costs more", n.Pool)
		}
	}
	// Equal weights: Karpenter orders by name, descending.
	*in.Pools[1].Pool.Spec.Weight = 0
	for _, n := range simulate(t, in).Nodes {
		if n.Pool != "preferred" {
			t.Fatalf("node on %s, want preferred (names descending)", n.Pool)
		}
	}
}

func TestSimulateLimitsStopScheduling(t *testing.T) {
	sim := simulate(t, simmodel.SimulationInput{
		Pools:     []simmodel.SimPool{testPool("d4", 0, corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("8")}, nil, onDemandOnly, sizes("Standard_D4s_v5"))},
		Workloads: []simmodel.Workload{pods("web", 10, "1", "1Gi")},
	})
	// Two 4-vCPU nodes use the 8-cpu limit: 6 pods run, 4 do not.
	if len(sim.Nodes) != 2 || sim.ScheduledPods != 6 {
		t.Fatalf("got %d nodes and %d pods, want 2 and 6", len(sim.Nodes), sim.ScheduledPods)
	}
	if len(sim.Unschedulable) != 1 || sim.Unschedulable[0].Count != 4 || !strings.Contains(sim.Unschedulable[0].Reason, "exceed limits") {
		t.Fatalf("unschedulable %+v", sim.Unschedulable)
	}
	nodes := simulate(t, simmodel.SimulationInput{
		Pools:     []simmodel.SimPool{testPool("d4", 0, corev1.ResourceList{"nodes": resource.MustParse("1")}, nil, onDemandOnly, sizes("Standard_D4s_v5"))},
		Workloads: []simmodel.Workload{pods("web", 10, "1", "1Gi")},
	})
	if nodes.ScheduledPods != 3 || !strings.Contains(nodes.Unschedulable[0].Reason, "node limits have been exhausted") {
		t.Fatalf("scheduled %d, unschedulable %+v", nodes.ScheduledPods, nodes.Unschedulable)
	}
	// A limited pool spills into the next one.
	spill := simulate(t, simmodel.SimulationInput{
		Pools: []simmodel.SimPool{
			testPool("limited", 10, corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4")}, nil, onDemandOnly, sizes("Standard_D4s_v5")),
			testPool("fallback", 0, nil, nil, onDemandOnly, sizes("Standard_E4s_v5")),
		},
		Workloads: []simmodel.Workload{pods("web", 6, "1", "1Gi")},
	})
	perPool := map[string]int{}
	for _, n := range spill.Nodes {
		perPool[n.Pool]++
	}
	if perPool["limited"] != 1 || perPool["fallback"] != 1 || spill.ScheduledPods != 6 {
		t.Fatalf("nodes per pool %v, scheduled %d", perPool, spill.ScheduledPods)
	}
}

// Standard_D2_v3 in eastus is offered regionally ("0") and in zones 1-3: four spread domains.
func TestSimulateZoneSpread(t *testing.T) {
	w := pods("web", 12, "500m", "512Mi")
	w.ZoneSpread = 1
	sim := simulate(t, simmodel.SimulationInput{
		Region:    "eastus",
		Pools:     []simmodel.SimPool{testPool("d2", 0, nil, nil, onDemandOnly, sizes("Standard_D2_v3"))},
		Workloads: []simmodel.Workload{w},
	})
	perZone := map[string]int{}
	for _, n := range sim.Nodes {
		for _, pc := range n.Pods {
			perZone[n.Zone] += pc.Count
		}
	}
	for _, z := range []string{"0", "eastus-1", "eastus-2", "eastus-3"} {
		if perZone[z] != 3 {
			t.Fatalf("pods per zone %v, want 3 in each of 0 and eastus-1..3", perZone)
		}
	}
	// A zone requirement on the pool narrows the domains.
	zoned := testPool("d2", 0, nil, nil, onDemandOnly, sizes("Standard_D2_v3"),
		karpv1.NodeSelectorRequirementWithMinValues{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"eastus-1", "eastus-2"}})
	sim = simulate(t, simmodel.SimulationInput{Region: "eastus", Pools: []simmodel.SimPool{zoned}, Workloads: []simmodel.Workload{w}})
	perZone = map[string]int{}
	for _, n := range sim.Nodes {
		for _, pc := range n.Pods {
			perZone[n.Zone] += pc.Count
		}
	}
	if perZone["eastus-1"] != 6 || perZone["eastus-2"] != 6 {
		t.Fatalf("pods per zone %v, want 6 in eastus-1 and eastus-2", perZone)
	}
}

func TestSimulateUnschedulableReasons(t *testing.T) {
	arm := pods("arm", 2, "1", "1Gi")
	arm.NodeSelector = map[string]string{corev1.LabelArchStable: karpv1.ArchitectureArm64}
	team := pods("team", 1, "1", "1Gi")
	team.NodeSelector = map[string]string{"team": "payments"} // a label the pool does not set
	huge := pods("huge", 1, "500", "1Gi")
	sim := simulate(t, simmodel.SimulationInput{
		Pools:     []simmodel.SimPool{testPool("d4", 0, nil, nil, onDemandOnly, sizes("Standard_D4s_v5"))},
		Workloads: []simmodel.Workload{arm, team, huge},
	})
	reasons := map[string]string{}
	for _, u := range sim.Unschedulable {
		reasons[u.Workload] = u.Reason
	}
	want := map[string]string{
		"arm":  "no instance type met all requirements",
		"team": "incompatible requirements",
		"huge": "no instance type has enough resources",
	}
	for w, r := range want {
		if !strings.Contains(reasons[w], r) {
			t.Fatalf("%s: reason %q, want %q", w, reasons[w], r)
		}
	}
}

func TestSimulateGPU(t *testing.T) {
	gpu := pods("train", 2, "2", "8Gi")
	gpu.Requests[corev1.ResourceName("nvidia.com/gpu")] = resource.MustParse("1")
	sim := simulate(t, simmodel.SimulationInput{
		Pools:     []simmodel.SimPool{testPool("gpu", 0, nil, nil, onDemandOnly, sizes("Standard_NC4as_T4_v3", "Standard_D8s_v5"))},
		Workloads: []simmodel.Workload{gpu, pods("web", 2, "1", "1Gi")},
	})
	for _, n := range sim.Nodes {
		for _, pc := range n.Pods {
			if pc.Workload == "train" && n.SKU != "Standard_NC4as_T4_v3" {
				t.Fatalf("GPU pod on %s", n.SKU)
			}
		}
	}
}

func TestSimulateDaemonOverhead(t *testing.T) {
	// 500m of daemons leaves 3360m on a D4s_v5: three 1-cpu pods still fit, a fourth never.
	sim := simulate(t, simmodel.SimulationInput{
		Pools:          []simmodel.SimPool{testPool("d4", 0, nil, nil, onDemandOnly, sizes("Standard_D4s_v5"))},
		Workloads:      []simmodel.Workload{pods("web", 6, "1", "1Gi")},
		DaemonOverhead: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("512Mi")},
	})
	if len(sim.Nodes) != 2 {
		t.Fatalf("got %d nodes, want 2", len(sim.Nodes))
	}
	for _, n := range sim.Nodes {
		if got := n.Requested.Cpu().MilliValue(); got != 3500 {
			t.Fatalf("requested %dm, want 3500m (pods + daemons)", got)
		}
	}
}

// A pool without a capacity-type requirement launches spot, as the Azure
// provider's allocation strategy would, and each node carries the spot list
// price and its provenance; in eastus the spot price is a labelled estimate.
func TestSimulateSpotPricesAndProvenance(t *testing.T) {
	for region, want := range map[string]string{"westeurope": "list 2026-08-22", "eastus": "estimated: on-demand × "} {
		sim := simulate(t, simmodel.SimulationInput{
			Region:    region,
			Pools:     []simmodel.SimPool{testPool("d4", 0, nil, nil, sizes("Standard_D4s_v5"))},
			Workloads: []simmodel.Workload{pods("web", 3, "1", "1Gi")},
		})
		n := sim.Nodes[0]
		if n.CapacityType != "spot" || !strings.HasPrefix(n.PriceSource, want) || n.PriceEstimated != (region == "eastus") || sim.PriceEstimated != (region == "eastus") {
			t.Errorf("%s: node %+v, want spot priced from %q", region, n, want)
		}
		if region == "westeurope" && n.HourlyPrice != 0.042504 {
			t.Errorf("westeurope spot D4s_v5 at %v, want the 2026-08-22 list price 0.042504", n.HourlyPrice)
		}
	}
}

// Each pool's nodes carry their own DaemonSet overhead. A tainted pool whose DaemonSets take
// 1500m (three 1-cpu pods no longer fit a D4s_v5) beside a plain pool without any: the pods go
// to the plain pool (higher weight) with three per D4s_v5, and the lower bound is that of the
// plain pool's nodes. With one overhead for all (the largest, as before), the bound was the
// 1500m pool's, above what the packing costs.
func TestSimulateDaemonOverheadPerPool(t *testing.T) {
	in := simmodel.SimulationInput{
		Pools: []simmodel.SimPool{
			testPool("plain", 10, nil, nil, onDemandOnly, sizes("Standard_D4s_v5")),
			testPool("heavy", 0, nil, nil, onDemandOnly, sizes("Standard_D4s_v5")),
		},
		Workloads:          []simmodel.Workload{pods("web", 6, "1", "1Gi")},
		PoolDaemonOverhead: map[string]corev1.ResourceList{"heavy": {corev1.ResourceCPU: resource.MustParse("1500m")}},
	}
	sim := simulate(t, in)
	if len(sim.Nodes) != 2 || !near(sim.HourlyCost, 2*0.23) {
		t.Fatalf("%d nodes for $%v, want 2 D4s_v5 ($0.46)", len(sim.Nodes), sim.HourlyCost)
	}
	for _, n := range sim.Nodes {
		if n.Pool != "plain" || n.Requested.Cpu().MilliValue() != 3000 {
			t.Errorf("node on %s requesting %v, want plain's nodes at 3000m (no daemons)", n.Pool, n.Requested.Cpu())
		}
	}
	if want := 2 * 0.23; sim.LowerBound < want-1e-5 || sim.LowerBound > sim.HourlyCost+1e-9 {
		t.Errorf("bound %v, want %v (6 pods, 3 per D4s_v5)", sim.LowerBound, want)
	}
	// The same pods charged the heavy pool's overhead everywhere: two pods per node, and a
	// "bound" of 3 nodes, above the packing that holds them on the plain pool.
	in.DaemonOverhead, in.PoolDaemonOverhead = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1500m")}, nil
	if heavy := simulate(t, in); heavy.LowerBound < 3*0.23-1e-5 {
		t.Errorf("with the largest overhead on every pool: bound %v, want 3 nodes' $0.69", heavy.LowerBound)
	}
}
