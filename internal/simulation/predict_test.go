package simulation

import (
	"fmt"
	"math"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// Karpenter packs one NodeClaim until no option holds more and launches the cheapest option
// that holds what it packed: on a wide pool, one large node where the optimum opens many
// small ones. Predict must report the former, labelled "karpenter"; Simulate the latter,
// labelled "optimal". (internal/simulation/benchcmp checks Predict against Karpenter's own
// scheduler on a seeded corpus.)
func TestPredictIsKarpentersDecisionNotTheOptimum(t *testing.T) {
	in := PredictionInput{Region: "westeurope", Pools: []simmodel.SimPool{testPool("general", 0, nil, nil, onDemandReq)},
		Pods: simmodel.Pods([]simmodel.Workload{pods("web", 40, "500m", "1Gi"), pods("api", 10, "2", "4Gi")})}
	got, err := Predict(testSolver, in)
	if err != nil {
		t.Fatal(err)
	}
	if got.Method != simmodel.MethodKarpenter || got.ScheduledPods != 50 || len(got.Unschedulable) != 0 {
		t.Fatalf("method %q, %d pods scheduled, unschedulable %v", got.Method, got.ScheduledPods, got.Unschedulable)
	}
	if len(got.Nodes) != 1 {
		t.Fatalf("Karpenter puts these 50 pods on one NodeClaim; got %d nodes: %+v", len(got.Nodes), got.Nodes)
	}
	opt := simulate(t, simmodel.SimulationInput{Pools: in.Pools, Workloads: simmodel.WorkloadsFromPods(in.Pods)})
	if opt.Method != simmodel.MethodOptimal || opt.HourlyCost >= got.HourlyCost {
		t.Fatalf("optimum %q $%.4f should beat Karpenter's $%.4f", opt.Method, opt.HourlyCost, got.HourlyCost)
	}
}

// A pod no instance type holds stays pending with Karpenter's reason; a DaemonSet that runs on
// every node adds its requests to the node.
func TestPredictPendingReasonAndDaemonOverhead(t *testing.T) {
	huge := pods("huge", 1, "1000", "1Gi")
	small := pods("small", 1, "100m", "128Mi")
	ds := DaemonSetPod("agent", corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("300m")})
	got, err := Predict(testSolver, PredictionInput{Region: "westeurope", Pools: []simmodel.SimPool{testPool("general", 0, nil, nil, onDemandReq)},
		Pods: simmodel.Pods([]simmodel.Workload{huge, small}), DaemonSets: []*corev1.Pod{ds}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Unschedulable) != 1 || got.Unschedulable[0].Workload != "huge" || !strings.Contains(got.Unschedulable[0].Reason, "no instance type") {
		t.Fatalf("unschedulable: %+v", got.Unschedulable)
	}
	if len(got.Nodes) != 1 {
		t.Fatalf("nodes: %+v", got.Nodes)
	}
	if cpu := got.Nodes[0].Requested.Cpu().MilliValue(); cpu != 400 {
		t.Fatalf("requested cpu %dm, want 400m (pod 100m + daemon 300m)", cpu)
	}
}

// Karpenter charges a new NodeClaim against its pool's limits with the largest capacity among
// its options at creation, and filters the next NodeClaim's options by what is left: with a
// limit of 8 cpu, two 3-cpu pods share a NodeClaim (its options are then 8-cpu sizes), the
// third needs a new one, for which nothing is left, so it goes to the next pool.
func TestPredictLimitsChargeTheLargestOption(t *testing.T) {
	limit := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("8")}
	in := PredictionInput{Region: "westeurope", Pools: []simmodel.SimPool{
		testPool("preferred", 10, limit, nil, onDemandReq),
		testPool("fallback", 0, nil, nil, onDemandReq),
	}, Pods: simmodel.Pods([]simmodel.Workload{pods("app", 3, "3", "1Gi")})}
	got, err := Predict(testSolver, in)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, n := range got.Nodes {
		for _, p := range n.Pods {
			per[n.Pool] += p.Count
		}
	}
	if len(got.Nodes) != 2 || per["preferred"] != 2 || per["fallback"] != 1 {
		t.Fatalf("want 2 pods on one preferred node and 1 on a fallback node, got %+v", got.Nodes)
	}
}

// Nil pods are an error, not a panic.
func TestPredictRejectsNilPods(t *testing.T) {
	pools := []simmodel.SimPool{testPool("general", 0, nil, nil, onDemandReq)}
	if _, err := Predict(testSolver, PredictionInput{Region: "westeurope", Pools: pools, Pods: []*corev1.Pod{nil}}); err == nil || !strings.Contains(err.Error(), "pod 0 is nil") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Predict(testSolver, PredictionInput{Region: "westeurope", Pools: pools, DaemonSets: []*corev1.Pod{nil}}); err == nil || !strings.Contains(err.Error(), "DaemonSet pod 0 is nil") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Predict(testSolver, PredictionInput{Region: "nowhere", Pools: pools}); err == nil {
		t.Fatal("unknown region accepted")
	}
}

// In eastus a zone spread's first pod finds every zone at count 0, and Karpenter takes one at
// random: the prediction counts the tie and reports the range over every choice. Without a
// spread (or in a region with one placement) there is no tie and no range.
func TestPredictReportsKarpentersRandomTies(t *testing.T) {
	w := pods("web", 1, "1", "1Gi")
	w.ZoneSpread = 1
	got, err := Predict(testSolver, PredictionInput{Region: "eastus", Pools: []simmodel.SimPool{testPool("general", 0, nil, nil, onDemandReq)}, Pods: simmodel.Pods([]simmodel.Workload{w})})
	if err != nil {
		t.Fatal(err)
	}
	r := got.CostRange
	if got.TieBreaks != 1 || r == nil || !r.Exhaustive || r.Runs < 3 || r.Outcomes < 1 || r.Min > got.HourlyCost || r.Max < got.HourlyCost || r.MinNodes != 1 || r.MaxNodes != 1 {
		t.Fatalf("tie breaks %d, range %+v, cost %.4f: want 1 tie, every zone run, the cost within the range", got.TieBreaks, r, got.HourlyCost)
	}
	bare, err := Predict(testSolver, PredictionInput{Region: "eastus", Pools: []simmodel.SimPool{testPool("general", 0, nil, nil, onDemandReq)}, Pods: simmodel.Pods([]simmodel.Workload{w}), NoTieRange: true})
	if err != nil {
		t.Fatal(err)
	}
	if bare.TieBreaks != 1 || bare.CostRange != nil || bare.HourlyCost != got.HourlyCost {
		t.Fatalf("NoTieRange: tie breaks %d, range %+v, cost %.4f; want the tie counted, no range, the same decision", bare.TieBreaks, bare.CostRange, bare.HourlyCost)
	}
	plain, err := Predict(testSolver, PredictionInput{Region: "eastus", Pools: []simmodel.SimPool{testPool("general", 0, nil, nil, onDemandReq)}, Pods: simmodel.Pods([]simmodel.Workload{pods("web", 1, "1", "1Gi")})})
	if err != nil {
		t.Fatal(err)
	}
	if plain.TieBreaks != 0 || plain.CostRange != nil {
		t.Fatalf("no spread: tie breaks %d, range %+v; want none", plain.TieBreaks, plain.CostRange)
	}
}

// A pool in two eastus zones, and five single-pod workloads spread over
// zones, each pod on a node of its own (a shared hostname anti-affinity): each pod's placement
// is a two-way tie, 32 combinations, more than the 16 runs
// of a sample. The prediction walks the distinct outcomes (karpenter.Enumerate) and reports the
// range as exhaustive, with exactly the outcomes every combination gives (Outcomes' odometer
// with a budget to walk them all: here one, the two zones offering the same sizes for these
// pods; TestEnumerateFindsEveryOutcomeOfTwoTiedZones has two). Before, it reported a sample of
// 16 runs.
func TestPredictWalksEveryOutcomeOfTwoTiedZones(t *testing.T) {
	zonal := karpv1.NodeSelectorRequirementWithMinValues{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"eastus-1", "eastus-3"}}
	pool := testPool("general", 0, nil, nil, onDemandReq, zonal)
	var ws []simmodel.Workload
	for i := range 5 {
		w := pods(fmt.Sprintf("app-%d", i), 1, []string{"3", "7", "15", "30", "60"}[i], "4Gi")
		w.ZoneSpread = 1
		ws = append(ws, w)
	}
	ps := simmodel.Pods(ws)
	for _, p := range ps { // each on a node of its own
		p.Labels["group"] = "spread"
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
			{TopologyKey: corev1.LabelHostname, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"group": "spread"}}}}}}
	}
	in := PredictionInput{Region: "eastus", Pools: []simmodel.SimPool{pool}, Pods: ps}
	got, err := Predict(testSolver, in)
	if err != nil {
		t.Fatal(err)
	}
	r := got.CostRange
	if got.TieBreaks != 5 || r == nil || !r.Exhaustive {
		t.Fatalf("tie breaks %d, range %+v; want 5 ties and every outcome walked", got.TieBreaks, r)
	}
	// Every combination, the long way.
	pin := emulationInput(pool, in.Pods)
	first, err := karpenter.Solve(pin)
	if err != nil {
		t.Fatal(err)
	}
	of := map[*corev1.Pod]int{}
	_, index := simmodel.GroupPods(pin.Pods)
	for i, p := range pin.Pods {
		of[p] = index[i]
	}
	all, err := karpenter.Outcomes(pin, first, 100000, func(r *karpenter.Result) string { return outcomeOf(r, of).key })
	if err != nil {
		t.Fatal(err)
	}
	want := costRange(all, of)
	if !all.Exhaustive || all.Runs <= TieRuns || r.Outcomes != want.Outcomes || r.Min != want.Min || r.Max != want.Max || r.MinNodes != want.MinNodes || r.MaxNodes != want.MaxNodes {
		t.Fatalf("prediction: %+v; every combination (%d runs, exhaustive %v): %+v", r, all.Runs, all.Exhaustive, want)
	}
	t.Logf("%d outcomes, $%.4f–$%.4f/h: the prediction in %d runs, the odometer in %d", r.Outcomes, r.Min, r.Max, r.Runs, all.Runs)
}

// The expected cost is the mean cost over tieRuns seeded draws of Karpenter's random choices
// (karpenter.Sample), repeats counted, and lies within the range; TieFigures, the comparator's
// entry, gives the same figures as Predict.
func TestPredictExpectedCostIsTheSampleMean(t *testing.T) {
	zonal := karpv1.NodeSelectorRequirementWithMinValues{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"eastus-1", "eastus-3"}}
	pool := testPool("general", 0, nil, nil, onDemandReq, zonal)
	var ws []simmodel.Workload
	for i := range 5 {
		w := pods(fmt.Sprintf("app-%d", i), 1, []string{"3", "7", "15", "30", "60"}[i], "4Gi")
		w.ZoneSpread = 1
		ws = append(ws, w)
	}
	in := PredictionInput{Region: "eastus", Pools: []simmodel.SimPool{pool}, Pods: simmodel.Pods(ws)}
	got, err := Predict(testSolver, in)
	if err != nil {
		t.Fatal(err)
	}
	r := got.CostRange
	if r == nil || r.Samples != tieRuns(len(in.Pods)) || r.Expected < r.Min || r.Expected > r.Max {
		t.Fatalf("range %+v: want %d samples and the expected cost within the range", r, tieRuns(len(in.Pods)))
	}
	pin := emulationInput(pool, in.Pods)
	first, err := karpenter.Solve(pin)
	if err != nil {
		t.Fatal(err)
	}
	draws, err := karpenter.Sample(pin, first, r.Samples)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, d := range draws {
		for _, nc := range d.NodeClaims {
			if nc.Launch != nil {
				sum += nc.Launch.Offering.Price
			}
		}
	}
	if mean := sum / float64(len(draws)); math.Abs(mean-r.Expected) > 1e-9 {
		t.Fatalf("expected cost %.6f, the draws' mean %.6f", r.Expected, mean)
	}
	tf, err := TieFigures(pin, first)
	if err != nil {
		t.Fatal(err)
	}
	if tf.Expected != r.Expected || tf.Min != r.Min || tf.Max != r.Max || tf.Outcomes != r.Outcomes {
		t.Fatalf("TieFigures %+v, Predict %+v", tf, r)
	}
}

// emulationInput is the emulation's input Predict builds for one eastus pool and the pods.
func emulationInput(pool simmodel.SimPool, pods []*corev1.Pod) karpenter.Input {
	np := pool.Pool.NodePool.DeepCopy()
	np.Spec.Template.Spec.NodeClassRef = defaultNodeClassRef(pool.Cloud(testSolver.Clouds()))
	pin := karpenter.Input{NodePools: []*karpv1.NodePool{np}, Pods: withUIDs(pods, "pod"),
		InstanceTypes: map[string][]*cloudprovider.InstanceType{}, Launchers: map[string]cloud.Launcher{}}
	rt := testSolver.RegionTypes("eastus", pool.ResolvedNodeClass(testSolver.Clouds()))
	pin.InstanceTypes[np.Name], pin.Launchers[np.Name] = rt.CloudProvider(), rt.Launcher()
	return pin
}
