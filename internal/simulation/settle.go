package simulation

import (
	"fmt"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// SettleEpoch is the simulated clock's default start: a fixed instant, so that runs repeat.
var SettleEpoch = time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)

// SettleInput is a cluster to run to its steady state, and optionally a change to run again.
type SettleInput struct {
	// Before is the cluster to start from. Its pods are provisioned (from Start, else from an
	// empty cluster) and the disruption controller runs until the steady state.
	Before PredictionInput
	// After, when set, replaces Before's objects at Before's steady state: its NodePools and
	// node classes replace Before's (a changed pool drifts the nodes it made), and its pods
	// replace Before's per workload (KeepReplicas: replicas of the same spec stay, a
	// scale-down deletes those the ReplicaSet controller ranks first, others leave, new ones
	// are pending). Then Karpenter runs to the steady state again.
	After *PredictionInput
	// PDBs are the PodDisruptionBudgets of Before; AfterPDBs those of After (nil: PDBs).
	PDBs, AfterPDBs []*policyv1.PodDisruptionBudget
	// Start are the nodes at the start (nil: an empty cluster). Nodes of Before's pools are
	// Karpenter's; build them with disruption.NewNode.
	Start []*disruption.Node
	// StartTime is the simulated clock's start (zero: SettleEpoch).
	StartTime time.Time
	// Horizon bounds each run on the simulated clock (0: 24h); MaxIterations its steps (0:
	// disruption.DefaultMaxIterations).
	Horizon       time.Duration
	MaxIterations int
	// Options are the operator's settings (feature gates) and the assumed launch time.
	Options disruption.Options
	// NodeClassHash, when set, is the cloud's node-class hash of a pool's node class
	// (cloud.Drifter); a NodeClaim made under one hash drifts when the pool's class has
	// another (the cloud's IsDrifted for its node-class hash).
	NodeClassHash func(pool string, after bool) string
}

// Settled is the steady state of Before, and of After when given.
type Settled struct {
	Before *SteadyState `json:"before"`
	After  *SteadyState `json:"after,omitempty"`
}

// SteadyState is one run to the steady state: the nodes then, what was disrupted on the way
// and why the nodes left underutilized or drifted stay.
type SteadyState struct {
	// Nodes are the nodes at the end, HourlyCost their list prices summed.
	Nodes      []simmodel.SimNode `json:"nodes"`
	HourlyCost float64            `json:"hourlyCost"`
	Currency   string             `json:"currency,omitempty"`
	// Pending is how many pods no node can take at the end.
	Pending int `json:"pending"`
	// Disruptions are the controller's commands and the expiries, in order of time.
	Disruptions []DisruptionStep `json:"disruptions"`
	// Totals counts the nodes removed per reason; PodsEvicted the pods evicted.
	Totals      map[string]int `json:"totals"`
	PodsEvicted int            `json:"podsEvicted"`
	// TimeToSteady is from the run's start to its last change.
	TimeToSteady time.Duration `json:"-"`
	// Steady is set when the run reached a steady state; HitHorizon and HitBound say which
	// bound ended it otherwise.
	Steady     bool `json:"steady"`
	HitHorizon bool `json:"hitHorizon,omitempty"`
	HitBound   bool `json:"hitBound,omitempty"`
	Iterations int  `json:"iterations"`
	// Blocked are the nodes at the end that are drifted, or that a setting keeps from being
	// consolidated, with the reason.
	Blocked []BlockedStay `json:"blocked"`
	// Assumptions say what the run takes as given rather than emulates.
	Assumptions []string `json:"assumptions"`
}

// DisruptionStep is one disruption: when, why, what it removed and launched, and the pods it
// evicted.
type DisruptionStep struct {
	// At is the time since the run's start.
	At           time.Duration `json:"-"`
	Reason       string        `json:"reason"`
	Method       string        `json:"method,omitempty"`
	Removed      []NodeRef     `json:"removed"`
	Replacements []NodeRef     `json:"replacements"`
	PodsEvicted  int           `json:"podsEvicted"`
	Savings      float64       `json:"estimatedSavingsPerHour,omitempty"`
}

// NodeRef names a node: its pool, instance type, capacity type and zone.
type NodeRef struct {
	Name         string  `json:"name"`
	Pool         string  `json:"pool"`
	InstanceType string  `json:"instanceType"`
	CapacityType string  `json:"capacityType"`
	Zone         string  `json:"zone"`
	HourlyPrice  float64 `json:"hourlyPrice"`
	// PriceSource is the price's provenance ("list 2026-11-30", "estimated: ...").
	PriceSource string `json:"priceSource,omitempty"`
}

// BlockedStay is a node that stays, and why.
type BlockedStay struct {
	Node   NodeRef `json:"node"`
	Reason string  `json:"reason"`
	Detail string  `json:"detail"`
	// Drifted is set for a drifted node.
	Drifted bool `json:"drifted,omitempty"`
}

// settleAssumptions are the run's assumptions, in the words the report shows.
func settleAssumptions(opts disruption.Options) []string {
	l := opts.LaunchToInitialized
	if l <= 0 {
		l = disruption.DefaultLaunchToInitialized
	}
	return []string{
		fmt.Sprintf("a NodeClaim is taken to initialize %s after its creation", l),
		"drains are taken as instant: a node leaves once its pods are evicted, and its budget slot frees with it",
		"evicted pods are bound again at once where Karpenter's scheduler would place them (the kube-scheduler's scoring is not emulated)",
		"prices are list prices; savings are Karpenter's own estimate (the cheapest offering of the replacement's first option)",
	}
}

// Settle runs Karpenter's provisioning and disruption (package disruption) on a simulated
// clock: Before from its start state to its steady state, then, when After is given, After's
// objects in place of Before's to the steady state again.
func Settle(s *analysis.Analyzer, in SettleInput) (*Settled, error) {
	start := in.StartTime
	if start.IsZero() {
		start = SettleEpoch
	}
	pr, err := prepare(s, in.Before)
	if err != nil {
		return nil, err
	}
	cl := &disruption.Cluster{Input: pr.pin, Nodes: in.Start, Pending: boundOnStart(in.Start, pr.pin.Pods), PDBs: in.PDBs}
	cl.Input.Pods, cl.Input.ExistingNodes = nil, nil
	cl.CloudDrift = classDrift(in, false)
	cl.Recreated = pr.recreated
	before, err := settleRun(s, pr, cl, in, start)
	if err != nil {
		return nil, fmt.Errorf("before: %w", err)
	}
	out := &Settled{Before: before.view}
	if in.After == nil {
		return out, nil
	}
	after := *in.After
	after.Pods = withUIDs(after.Pods, "after")
	pa, err := prepare(s, after)
	if err != nil {
		return nil, fmt.Errorf("after: %w", err)
	}
	tied := replaceObjects(cl, pa, before.end)
	cl.Recreated = pa.recreated
	if in.AfterPDBs != nil {
		cl.PDBs = in.AfterPDBs
	}
	cl.CloudDrift = classDrift(in, true)
	res, err := settleRun(s, pa, cl, in, before.end)
	if err != nil {
		return nil, fmt.Errorf("after: %w", err)
	}
	out.After = res.view
	if tied {
		out.After.Assumptions = append(out.After.Assumptions, scaleDownTieAssumption)
	}
	return out, nil
}

// boundOnStart binds Before's pods that the start state's nodes hold (by namespace and name,
// as the prepared copies) to those nodes, and returns the others, pending.
func boundOnStart(start []*disruption.Node, pods []*corev1.Pod) []*corev1.Pod {
	type key struct{ ns, name string }
	byKey := map[key]*corev1.Pod{}
	for _, p := range pods {
		byKey[key{p.Namespace, p.Name}] = p
	}
	bound := map[*corev1.Pod]bool{}
	for _, n := range start {
		for i, p := range n.Pods {
			if q, ok := byKey[key{p.Namespace, p.Name}]; ok && !bound[q] {
				n.Pods[i] = q
				bound[q] = true
			}
		}
	}
	pending := make([]*corev1.Pod, 0, len(pods)-len(bound))
	for _, p := range pods {
		if !bound[p] {
			pending = append(pending, p)
		}
	}
	return pending
}

type settledRun struct {
	view *SteadyState
	end  time.Time
}

// settleRun runs the cluster to its steady state and views it.
func settleRun(s *analysis.Analyzer, pr *prepared, cl *disruption.Cluster, in SettleInput, start time.Time) (*settledRun, error) {
	res, err := disruption.Run(cl, disruption.NewController(in.Options), disruption.RunOptions{
		Start: start, Horizon: in.Horizon, MaxIterations: in.MaxIterations,
		Provision: func(kin karpenter.Input) ([]karpenter.ExistingNode, []*corev1.Pod, error) {
			p, err := Provision(kin, MaxRounds)
			if err != nil {
				return nil, nil, err
			}
			return p.Nodes, p.Pending, nil
		},
	})
	if err != nil {
		return nil, err
	}
	v := &SteadyState{Steady: res.Steady, HitHorizon: res.HitHorizon, HitBound: res.HitBound, Iterations: res.Iterations,
		TimeToSteady: res.End.Sub(start), Pending: len(cl.Pending), Totals: map[string]int{}, Currency: pr.currency(s),
		Assumptions: settleAssumptions(in.Options)}
	for _, n := range cl.Nodes {
		sn := pr.nodeView(n)
		sn.Currency = v.Currency
		v.Nodes = append(v.Nodes, sn)
		v.HourlyCost += sn.HourlyPrice
	}
	v.HourlyCost = money.Round(v.Currency, v.HourlyCost)
	for _, ev := range res.Events {
		step := DisruptionStep{At: ev.At.Sub(start), Reason: string(ev.Reason), Method: ev.Method, PodsEvicted: ev.Evicted, Savings: Round(ev.Savings)}
		for _, n := range ev.Removed {
			step.Removed = append(step.Removed, pr.ref(n))
		}
		for _, n := range ev.Replacements {
			step.Replacements = append(step.Replacements, pr.ref(n))
		}
		v.Disruptions = append(v.Disruptions, step)
		v.Totals[step.Reason] += len(step.Removed)
		v.PodsEvicted += ev.Evicted
	}
	v.Blocked = blockedStays(pr, cl, res.Blocked)
	return &settledRun{view: v, end: res.End}, nil
}

// blockedStays are the nodes left drifted, and the nodes left underutilized (their pods
// request under half their allocatable CPU and memory: a reporting threshold, not
// Karpenter's) with the reason the controller's last pass gave for leaving them.
func blockedStays(pr *prepared, cl *disruption.Cluster, why map[string]*disruption.BlockedError) []BlockedStay {
	out := []BlockedStay{}
	for _, n := range cl.Nodes {
		if n.NodeClaim == nil {
			continue
		}
		drifted := n.NodeClaim.StatusConditions().IsTrue(karpv1.ConditionTypeDrifted)
		b := why[n.Name]
		switch {
		case b == nil && drifted:
			b = &disruption.BlockedError{Reason: "in progress", Detail: "drifted; its replacement had not finished at the end"}
		case b == nil:
			continue
		case !drifted && !underutilized(n):
			continue
		}
		out = append(out, BlockedStay{Node: pr.ref(n), Reason: b.Reason, Detail: b.Detail, Drifted: drifted})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Node.Name < out[j].Node.Name })
	return out
}

// underutilized is a node whose pods request less than half its allocatable CPU and memory.
func underutilized(n *disruption.Node) bool {
	var cpu, mem int64
	for _, p := range n.Pods {
		r := karpenterRequests(p)
		cpu += r.Cpu().MilliValue()
		mem += r.Memory().Value()
	}
	return cpu*2 < n.Allocatable.Cpu().MilliValue() && mem*2 < n.Allocatable.Memory().Value()
}

func karpenterRequests(p *corev1.Pod) corev1.ResourceList {
	out := corev1.ResourceList{}
	for _, c := range p.Spec.Containers {
		for k, v := range c.Resources.Requests {
			q := out[k]
			q.Add(v)
			out[k] = q
		}
	}
	return out
}

// replaceObjects puts After's objects in place of Before's at now: its pools, instance types
// and launchers; its pods for Before's as the workload controllers would (KeepReplicas: a
// scale-down deletes the pods the ReplicaSet controller ranks first). A staying pod counts as
// the After pod it stands for in the report. Tied says the ranking took pods by name among
// pods it cannot tell apart.
func replaceObjects(cl *disruption.Cluster, pa *prepared, now time.Time) (tied bool) {
	cl.Input.NodePools, cl.Input.InstanceTypes, cl.Input.Launchers, cl.Input.WellKnownLabels = pa.pin.NodePools, pa.pin.InstanceTypes, pa.pin.Launchers, pa.pin.WellKnownLabels
	cl.Input.DaemonSetPods = pa.pin.DaemonSetPods
	standsFor, tied := KeepReplicas(cl, pa.pin.Pods, WorkloadOf, now)
	for p, q := range standsFor {
		pa.of[p] = pa.of[q]
	}
	return tied
}

// recreated counts a pod recreated after an eviction as the workload's pod it replaces.
func (pr *prepared) recreated(evicted, replacement *corev1.Pod) {
	if w, ok := pr.of[evicted]; ok {
		pr.of[replacement] = w
	}
}

// scaleDownTieAssumption says how a scale-down's tie was broken.
const scaleDownTieAssumption = "a scale-down deleted, among replicas the ReplicaSet controller ranks alike (it picks among them at random), the first by name"

// classHashAnnotation is where a NodeClaim keeps the node-class hash it was made with.
const classHashAnnotation = "simulation.karpenter-iac/nodeclass-hash"

// classDrift is the cloud's drift by node-class hash: a NodeClaim whose recorded hash differs
// from its pool's class hash now. A NodeClaim without one is stamped with the current hash.
func classDrift(in SettleInput, after bool) func(*karpv1.NodePool, *karpv1.NodeClaim) cloudprovider.DriftReason {
	if in.NodeClassHash == nil {
		return nil
	}
	return func(np *karpv1.NodePool, nc *karpv1.NodeClaim) cloudprovider.DriftReason {
		now := in.NodeClassHash(np.Name, after)
		had, ok := nc.Annotations[classHashAnnotation]
		if !ok {
			nc.Annotations[classHashAnnotation] = now
			return ""
		}
		if had != now {
			return "NodeClassDrift"
		}
		return ""
	}
}

// nodeView is a node as the report shows it: pool, size, capacity type, zone, price and pods
// per workload.
func (pr *prepared) nodeView(n *disruption.Node) simmodel.SimNode {
	r := pr.ref(n)
	sn := simmodel.SimNode{Pool: r.Pool, SKU: r.InstanceType, Zone: r.Zone, CapacityType: r.CapacityType, HourlyPrice: r.HourlyPrice,
		PriceSource: r.PriceSource, Allocatable: n.Allocatable.DeepCopy()}
	if rt, ok := pr.rts[r.Pool]; ok {
		if d := rt.ByName(r.InstanceType); d != nil {
			sn.ZoneAssumed = cloud.ZoneAssumed(d, r.Zone)
		}
	}
	sn.Pods = podCounts(n.Pods, pr.of, pr.workloads)
	return sn
}

// ref names the node with its offering's list price.
func (pr *prepared) ref(n *disruption.Node) NodeRef {
	r := NodeRef{Name: n.Name, Pool: n.NodePool(), InstanceType: n.Labels[corev1.LabelInstanceTypeStable],
		CapacityType: n.Labels[karpv1.CapacityTypeLabelKey], Zone: n.Labels[corev1.LabelTopologyZone]}
	for _, it := range pr.pin.InstanceTypes[r.Pool] {
		if it.Name != r.InstanceType {
			continue
		}
		for _, o := range it.Offerings {
			if o.Zone() != r.Zone || o.CapacityType() != r.CapacityType {
				continue
			}
			r.HourlyPrice = o.Price
			if rt, ok := pr.rts[r.Pool]; ok {
				if d := rt.ByName(r.InstanceType); d != nil {
					p := d.PriceOf(o)
					r.PriceSource = p.Source
					if p.Estimated() && r.PriceSource == "" {
						r.PriceSource = "estimated"
					}
				}
			}
			break
		}
	}
	return r
}

// currency is the pools' currency.
func (pr *prepared) currency(s *analysis.Analyzer) string {
	return simmodel.Currency(pr.pools, s.Clouds(), pr.region)
}

// PodDisruptionBudgets are the input's budgets as the API server holds them, with the
// expected and desired healthy pods the disruption controller computes at full health
// (workload.Set.BudgetStatus); the simulation counts the healthy pods as it goes. A budget
// whose status the input does not determine is left without one (computed from its pods).
func PodDisruptionBudgets(set *workload.Set) []*policyv1.PodDisruptionBudget {
	out := make([]*policyv1.PodDisruptionBudget, 0, len(set.Budgets))
	for _, b := range set.Budgets {
		pdb := &policyv1.PodDisruptionBudget{Spec: b.Spec}
		pdb.Name, pdb.Namespace = b.Name, b.Namespace
		if st := set.BudgetStatus(b); st.Known {
			pdb.Status.ObservedGeneration = 1
			pdb.Status.ExpectedPods, pdb.Status.DesiredHealthy = int32(st.ExpectedPods), int32(st.DesiredHealthy)
		}
		out = append(out, pdb)
	}
	return out
}
