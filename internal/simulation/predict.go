package simulation

import (
	"errors"
	"fmt"
	"k8s.io/apimachinery/pkg/util/sets"
	"math"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// TieRuns bounds the rounds a prediction solves to find Karpenter's other outcomes where it
// breaks ties at random (Simulation.CostRange): every combination of choices when that takes
// no more runs, else a seeded sample of that many runs. Large batches get fewer (tieRuns).
const TieRuns = 16

// tiePodBudget bounds the pods all runs of a prediction place together, so that a large batch
// with ties costs a few predictions, not TieRuns of them (5,000 pods: 8 runs).
const tiePodBudget = 40000

func tieRuns(pods int) int { return max(2, min(TieRuns, tiePodBudget/max(pods, 1))) }

// extremeRuns bounds each of karpenter.Extremes' two descents, toward the cheapest and the
// dearest outcome, where the walk is not exhaustive: half the sample's runs each, so that
// the two together cost what the sample does.
func extremeRuns(pods int) int { return max(1, tieRuns(pods)/2) }

// enumerationBudget is how many pod placements Predict gives karpenter.Enumerate to walk every
// distinct outcome before it falls back to the sample: up to 64 rounds' worth, within what
// the sample would leave of tiePodBudget (none from 2,500 pods, where the sample alone spends
// it). A prediction places at most tiePodBudget pods in its re-runs, or 80 rounds' worth when
// that is less.
func enumerationBudget(pods int) int {
	return max(0, min(64*pods, tiePodBudget-tieRuns(pods)*pods))
}

// PredictionInput is one provisioning round: pending pods with their full specs (affinity,
// spread, tolerations, node selectors, requests as Kubernetes computes them, init containers
// and overhead included), the NodePools with their node classes, and one pod per DaemonSet.
type PredictionInput struct {
	Region     string
	Pools      []simmodel.SimPool
	Pods       []*corev1.Pod
	DaemonSets []*corev1.Pod
	// WorkloadOf, when set, names the workload a pod belongs to in the result (e.g. the
	// Deployment that owns it); by default pods are grouped as WorkloadsFromPods groups them.
	WorkloadOf func(*corev1.Pod) string
	// NoTieRange skips the re-runs with Karpenter's other tie-breaks (CostRange stays nil;
	// TieBreaks is still counted): for callers that need the decision only.
	NoTieRange bool
	// ExistingNodes are the cluster's nodes when the round starts (none: an empty cluster).
	ExistingNodes []karpenter.ExistingNode
}

// prepared is a prediction's input as the emulation takes it, with what its view needs.
type prepared struct {
	region    string
	pin       karpenter.Input
	rts       map[string]analysis.RegionTypes
	workloads []simmodel.Workload
	of        map[*corev1.Pod]int
	pools     []simmodel.SimPool
}

// prepare checks the input and builds the emulation's: each pool's instance types and launch
// choice from its cloud, the pods with UIDs, and each pod's workload.
func prepare(s *analysis.Analyzer, in PredictionInput) (*prepared, error) {
	region := strings.ToLower(in.Region)
	if region == "" || !s.HasRegion(region) {
		return nil, fmt.Errorf("region %q is not in the SKU catalog", in.Region)
	}
	pin := karpenter.Input{InstanceTypes: map[string][]*cloudprovider.InstanceType{}, Launchers: map[string]cloud.Launcher{}, WellKnownLabels: map[string]sets.Set[string]{}}
	rts := map[string]analysis.RegionTypes{}
	for i, p := range in.Pools {
		if p.Pool == nil || p.Pool.NodePool == nil {
			return nil, fmt.Errorf("pool %d is nil", i)
		}
		np := p.Pool.NodePool
		if _, dup := rts[np.Name]; dup {
			return nil, fmt.Errorf("pool %d: NodePool %q is given twice", i, np.Name)
		}
		// The pool's cloud (by nodeClassRef.group) gives its instance types and launch choice.
		c := p.Cloud(s.Clouds())
		if np.Spec.Template.Spec.NodeClassRef == nil {
			np = np.DeepCopy()
			np.Spec.Template.Spec.NodeClassRef = defaultNodeClassRef(c)
		}
		rt := s.RegionTypes(region, p.ResolvedNodeClass(s.Clouds()))
		rts[np.Name] = rt
		pin.NodePools = append(pin.NodePools, np)
		pin.InstanceTypes[np.Name] = rt.CloudProvider()
		pin.Launchers[np.Name] = rt.Launcher()
		pin.WellKnownLabels[np.Name] = c.WellKnownLabels()
	}
	for i, p := range in.Pods {
		if p == nil {
			return nil, fmt.Errorf("pod %d is nil", i)
		}
	}
	for i, p := range in.DaemonSets {
		if p == nil {
			return nil, fmt.Errorf("DaemonSet pod %d is nil", i)
		}
	}
	pin.ExistingNodes = in.ExistingNodes
	pin.Pods = withUIDs(in.Pods, "pod")
	pin.DaemonSetPods = withUIDs(in.DaemonSets, "daemonset")
	workloads, index := simmodel.GroupPods(pin.Pods)
	if in.WorkloadOf != nil {
		workloads, index = namedGroups(in.Pods, in.WorkloadOf)
	}
	of := map[*corev1.Pod]int{}
	for i, p := range pin.Pods {
		of[p] = index[i]
	}
	return &prepared{region: region, pin: pin, rts: rts, workloads: workloads, of: of, pools: in.Pools}, nil
}

// Predict returns what Karpenter on AKS would launch for the pods (Method "karpenter"): one
// SimNode per NodeClaim, with the size, capacity type and zone the Azure provider picks and
// the pods per workload (workloads as WorkloadsFromPods groups them), and the pods Karpenter
// would leave pending with its reason. Where Karpenter breaks a tie at random (equal zones of
// a topology spread, the order of daemon overhead groups; equal offerings at launch), the
// first by name is reported, and TieBreaks and CostRange say how many such ties there were and
// what Karpenter's other outcomes cost (the round re-run with other tie-breaks). LowerBound and
// BoundGroups are left empty: they belong to the optimum (Simulate). The cluster is taken as
// empty (no existing nodes, no running pods a spread or affinity would count), and volume
// topology (the zones of a pod's PersistentVolumes) is not known offline, so it is not applied.
func Predict(s *analysis.Analyzer, in PredictionInput) (*simmodel.Simulation, error) {
	pr, err := prepare(s, in)
	if err != nil {
		return nil, err
	}
	region, pin, workloads, of := pr.region, pr.pin, pr.workloads, pr.of
	res, err := karpenter.Solve(pin)
	if err != nil {
		return nil, err
	}
	sim := &simmodel.Simulation{Region: region, Method: simmodel.MethodKarpenter, TieBreaks: res.Ties, Currency: simmodel.Currency(in.Pools, s.Clouds(), region)}
	if res.Ties > 0 && !in.NoTieRange {
		if sim.CostRange, err = tieFigures(pin, res, of); err != nil {
			return nil, err
		}
	}
	var reqCPU, reqMem, allocCPU, allocMem float64
	for _, nc := range res.NodeClaims {
		if nc.Launch == nil {
			for _, p := range nc.Pods {
				res.PodErrors[p] = errors.New("all requested instance types were unavailable during launch")
			}
			continue
		}
		n := pr.node(nc)
		sim.Nodes = append(sim.Nodes, n)
		sim.HourlyCost += n.HourlyPrice
		sim.PriceEstimated = sim.PriceEstimated || n.PriceEstimated
		sim.ScheduledPods += len(nc.Pods)
		reqCPU += float64(n.Requested.Cpu().MilliValue())
		reqMem += float64(n.Requested.Memory().Value())
		allocCPU += float64(n.Allocatable.Cpu().MilliValue())
		allocMem += float64(n.Allocatable.Memory().Value())
	}
	if allocCPU > 0 {
		sim.Utilisation.CPU = reqCPU / allocCPU
	}
	if allocMem > 0 {
		sim.Utilisation.Memory = reqMem / allocMem
	}
	sim.Unschedulable = pendingByWorkload(res.PodErrors, of, workloads)
	sim.HourlyCost = money.Round(sim.Currency, sim.HourlyCost)
	return sim, nil
}

// node is the SimNode a launched NodeClaim is: its size, capacity type, zone and price, and
// its pods per workload.
func (pr *prepared) node(nc *karpenter.NodeClaim) simmodel.SimNode {
	it, o := nc.Launch.InstanceType, nc.Launch.Offering
	n := simmodel.SimNode{Pool: nc.NodePool, SKU: it.Name, Zone: cloud.ZoneOf(o), CapacityType: o.CapacityType(), HourlyPrice: o.Price,
		Requested: nc.Requests.DeepCopy(), Allocatable: it.Allocatable().DeepCopy()}
	delete(n.Requested, corev1.ResourcePods)
	if d := pr.rts[nc.NodePool].ByName(it.Name); d != nil {
		n.ZoneAssumed = cloud.ZoneAssumed(d, n.Zone)
		price := d.PriceOf(o)
		n.PriceEstimated, n.Currency = price.Estimated(), money.Code(price.Currency)
	}
	n.Pods = podCounts(nc.Pods, pr.of, pr.workloads)
	return n
}

// tieOutcomes are Karpenter's outcomes over its random tie-breaks that a walk finds: every
// distinct one when karpenter.EnumerateModuloZones' walk ends within enumerationBudget
// (Exhaustive), else the outcomes walked so far. Without an enumeration budget (large batches)
// it is karpenter.Outcomes' walk of every combination where there are few, else its seeded
// sample. The key leaves zones out (outcomeOf), so the walk takes one zone per class of zones
// the round cannot tell apart. tieFigures adds the seeded sample and the cost-directed search.
func tieOutcomes(in karpenter.Input, first *karpenter.Result, key func(*karpenter.Result) string) (karpenter.OutcomeSet, error) {
	if budget := enumerationBudget(len(in.Pods)); budget > 0 {
		return karpenter.EnumerateModuloZones(in, first, budget, key)
	}
	return karpenter.Outcomes(in, first, tieRuns(len(in.Pods)), key)
}

// defaultNodeClassRef stands in for a pool without nodeClassRef (the CRD requires one, so
// only a hand-built pool lacks it): the cloud's first node-class kind, named "default".
func defaultNodeClassRef(c cloud.Cloud) *karpv1.NodeClassReference {
	gk := c.NodeClassKinds()[0]
	return &karpv1.NodeClassReference{Group: gk.Group, Kind: gk.Kind, Name: "default"}
}

// outcome is what a provisioning decision comes to: its hourly cost, nodes and pending pods,
// and a key that identifies it (per NodeClaim: pool, size, capacity type, price and pods per
// workload).
type outcome struct {
	cost           float64
	nodes, pending int
	key            string
}

func outcomeOf(r *karpenter.Result, of map[*corev1.Pod]int) outcome {
	o := outcome{pending: len(r.PodErrors)}
	claims := make([]string, 0, len(r.NodeClaims))
	for _, nc := range r.NodeClaims {
		if nc.Launch == nil {
			o.pending += len(nc.Pods)
			continue
		}
		o.cost += nc.Launch.Offering.Price
		o.nodes++
		counts := map[int]int{}
		for _, p := range nc.Pods {
			counts[of[p]]++
		}
		claims = append(claims, fmt.Sprintf("%s/%s/%s/%g %v", nc.NodePool, nc.Launch.InstanceType.Name, nc.Launch.Offering.CapacityType(), nc.Launch.Offering.Price, counts))
	}
	sort.Strings(claims)
	o.key = strings.Join(claims, "\n") + fmt.Sprintf("\npending %d", o.pending)
	return o
}

func costRange(set karpenter.OutcomeSet, of map[*corev1.Pod]int) *simmodel.CostRange {
	cr := &simmodel.CostRange{Min: math.Inf(1), Max: math.Inf(-1), MinNodes: math.MaxInt, MinPending: math.MaxInt,
		Outcomes: len(set.Results), Runs: set.Runs, Exhaustive: set.Exhaustive}
	for _, r := range set.Results {
		o := outcomeOf(r, of)
		cr.Min, cr.Max = math.Min(cr.Min, o.cost), math.Max(cr.Max, o.cost)
		cr.MinNodes, cr.MaxNodes = min(cr.MinNodes, o.nodes), max(cr.MaxNodes, o.nodes)
		cr.MinPending, cr.MaxPending = min(cr.MinPending, o.pending), max(cr.MaxPending, o.pending)
	}
	return cr
}

// namedGroups groups pods by the workload name the caller gives each, in first-seen order.
func namedGroups(pods []*corev1.Pod, name func(*corev1.Pod) string) ([]simmodel.Workload, []int) {
	byName := map[string]int{}
	var ws []simmodel.Workload
	index := make([]int, len(pods))
	for i, p := range pods {
		n := name(p)
		j, ok := byName[n]
		if !ok {
			j = len(ws)
			byName[n] = j
			ws = append(ws, simmodel.Workload{Name: n})
		}
		ws[j].Count++
		index[i] = j
	}
	return ws, index
}

// withUIDs gives pods without a UID one (Karpenter keys its pod data by UID); pods that have
// one are passed as they are.
func withUIDs(pods []*corev1.Pod, prefix string) []*corev1.Pod {
	out := make([]*corev1.Pod, len(pods))
	for i, p := range pods {
		if p.UID == "" {
			p = p.DeepCopy()
			p.UID = types.UID(fmt.Sprintf("%s-%s-%s-%d", prefix, p.Namespace, p.Name, i))
		}
		out[i] = p
	}
	return out
}

func podCounts(pods []*corev1.Pod, of map[*corev1.Pod]int, ws []simmodel.Workload) []simmodel.PodCount {
	counts := map[int]int{}
	for _, p := range pods {
		counts[of[p]]++
	}
	idx := make([]int, 0, len(counts))
	for w := range counts {
		idx = append(idx, w)
	}
	sort.Ints(idx)
	out := make([]simmodel.PodCount, len(idx))
	for i, w := range idx {
		out[i] = simmodel.PodCount{Workload: ws[w].Name, Count: counts[w]}
	}
	return out
}

// pendingByWorkload groups the pods Karpenter leaves pending per workload, with the reason of
// the workload's first pending pod in queue-independent (name) order.
func pendingByWorkload(errs map[*corev1.Pod]error, of map[*corev1.Pod]int, ws []simmodel.Workload) []simmodel.Unschedulable {
	byW := map[int][]*corev1.Pod{}
	for p := range errs {
		byW[of[p]] = append(byW[of[p]], p)
	}
	idx := make([]int, 0, len(byW))
	for w := range byW {
		idx = append(idx, w)
	}
	sort.Ints(idx)
	var out []simmodel.Unschedulable
	for _, w := range idx {
		ps := byW[w]
		sort.Slice(ps, func(i, j int) bool { return ps[i].Namespace+"/"+ps[i].Name < ps[j].Namespace+"/"+ps[j].Name })
		out = append(out, simmodel.Unschedulable{Workload: ws[w].Name, Count: len(ps), Reason: explainLimits(errs[ps[0]].Error())})
	}
	return out
}

// limitsExceeded is the error Karpenter's scheduler gives a pod when every instance type a new
// NodeClaim of the pool could take exceeds what the pool's limits have left (addToNewNodeClaim).
const limitsExceeded = "all available instance types exceed limits for nodepool"

// roundOnlyNote says why limitsExceeded may hold a pod back in this round only: Karpenter
// charges a new NodeClaim against its pool's limits with the largest capacity among the sizes it
// may still become (subtractMax: on a wide pool, the largest size of the pool), not the size it
// launches; once the NodeClaims launch, a later round charges their launched capacity
// (updateRemainingResources, StateNode.Capacity) and may place the pod. The prediction is one
// round (Predict), so its pending pods are the first round's.
const roundOnlyNote = " (in this provisioning round: Karpenter charges each new NodeClaim against the limits with the largest size it may still become, " +
	"not the size it launches; a later round, once these NodeClaims have launched, charges their launched size and may place these pods)"

func explainLimits(reason string) string {
	if strings.Contains(reason, limitsExceeded) && !strings.Contains(reason, roundOnlyNote) {
		return reason + roundOnlyNote
	}
	return reason
}

// DaemonSetPod is a DaemonSet pod that requests the given resources and tolerates every taint,
// so that it runs on every node: what SimulationInput.DaemonOverhead describes.
func DaemonSetPod(name string, requests corev1.ResourceList) *corev1.Pod {
	p := &corev1.Pod{}
	p.Name, p.Namespace, p.UID = name, "kube-system", types.UID("daemonset-"+name)
	req := corev1.ResourceList{}
	for k, v := range requests {
		if k != corev1.ResourcePods {
			req[k] = v
		}
	}
	p.Spec.Containers = []corev1.Container{{Name: "main", Resources: corev1.ResourceRequirements{Requests: req}}}
	p.Spec.Tolerations = []corev1.Toleration{{Operator: corev1.TolerationOpExists}}
	return p
}
