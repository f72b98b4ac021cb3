package simulation

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// Modes.
const (
	Karpenter = "karpenter" // Karpenter's own scheduling decisions
	Optimal   = "optimal"   // the cheapest packing the solver finds, and a lower bound
	Both      = "both"
)

// Modes lists the valid modes.
var Modes = []string{Karpenter, Optimal, Both}

// Input is one cluster.
type Input struct {
	Region string
	// NodePools and NodeClasses are the objects' bodies, values unknown until apply removed.
	NodePools, NodeClasses []map[string]any
	Pods, DaemonSets       []*corev1.Pod
	// Workloads are pending pods given by shape, each named as its workload.
	// Their pods join Karpenter's queue before Pods; the optimum takes them as they are.
	Workloads []simmodel.Workload
	// DaemonOverhead is what every node runs on top of DaemonSets.
	// Karpenter sees it as one DaemonSet pod that tolerates every taint; the optimum adds it to
	// every pool's overhead without a pod slot.
	DaemonOverhead corev1.ResourceList
	// ConfigurationBound asks the optimum for the configuration LP's lower bound.
	ConfigurationBound bool
	// SteadyState asks for Karpenter's steady state (Settle) next to its first round and its
	// provisioning rounds; PDBs are the input's PodDisruptionBudgets its evictions honour.
	SteadyState bool
	PDBs        []*policyv1.PodDisruptionBudget
	// MaxPods and MaxNodes cap the input (0: MaxPods, MaxNodes, the documented limits of a
	// cluster): past them Simulate returns a *SizeError before any work.
	MaxPods, MaxNodes int
	// Start is the running cluster the simulation starts from (nil: an empty cluster). Karpenter
	// tries its nodes before any NodeClaim, and its pending pods join the queue after Pods.
	Start *StartState
	// After, when set, is the whole input after a change (its Region, NodePools, NodeClasses,
	// Pods, DaemonSets, Workloads, DaemonOverhead and PDBs; its other fields are ignored). Its
	// objects replace this input's at the steady state and Karpenter runs to the steady state
	// again (Result.Settled.After). Only the karpenter mode's steady state uses it.
	After *Input
}

// Result is the outcome in the modes asked for; a mode not asked for is nil.
type Result struct {
	// Karpenter is Karpenter's first provisioning round on an empty cluster.
	Karpenter, Optimal *simmodel.Simulation
	// Provisioned (karpenter mode) is Karpenter's provisioning rounds run until one places
	// nothing more (PredictRounds): not a steady state, no disruption is emulated.
	Provisioned *Provisioning
	// Settled (karpenter mode) is Karpenter run on a simulated clock from an empty cluster
	// to its steady state: provisioning, then emptiness, drift and consolidation (Settle).
	Settled *Settled
	// Pools are the NodePools simulated, by name; Skipped says why others were not.
	Pools   []string
	Skipped []string
	// Assumptions say where the result is not what Karpenter would do, and how.
	Assumptions []string
	// simPools are the pools as simulated (validated, defaulted), for Advise and DisruptionFindings.
	simPools []simmodel.SimPool
}

// SimPools are the pools as simulated, in the order of Pools.
func (r *Result) SimPools() []simmodel.SimPool { return r.simPools }

// LowerBound is the proven lower bound on the hourly cost (from the optimal mode when it ran).
func (r *Result) LowerBound() float64 {
	for _, s := range []*simmodel.Simulation{r.Optimal, r.Karpenter} {
		if s != nil {
			return s.LowerBound
		}
	}
	return 0
}

// Currency is the ISO 4217 code of the result's costs (USD when nothing ran).
func (r *Result) Currency() string {
	for _, s := range []*simmodel.Simulation{r.Karpenter, r.Optimal} {
		if s != nil {
			return money.Code(s.Currency)
		}
	}
	return money.USD
}

// Primary is the result a single figure should come from: Karpenter's when it ran.
func (r *Result) Primary() (string, *simmodel.Simulation) {
	if r.Karpenter != nil {
		return Karpenter, r.Karpenter
	}
	return Optimal, r.Optimal
}

// Simulate runs the cluster in the mode.
func Simulate(ctx context.Context, s *analysis.Analyzer, in Input, mode string) (*Result, error) {
	if !slices.Contains(Modes, mode) {
		return nil, fmt.Errorf("unknown mode %q (want %s)", mode, strings.Join(Modes, ", "))
	}
	res := &Result{}
	if in.Start != nil {
		in.Pods = append(slices.Clip(in.Pods), in.Start.Pending...)
		res.Assumptions = append(res.Assumptions, in.Start.Assumptions...)
	}
	pools, err := simPools(ctx, s, in, res)
	if err != nil {
		return nil, err
	}
	res.simPools = pools
	if err := checkSize(s, in, pools); err != nil {
		return nil, err
	}
	res.Assumptions = append(res.Assumptions, cloudAssumptions(s, in.Region, pools)...)
	after, err := afterInput(ctx, s, in, res)
	if err != nil {
		return nil, err
	}
	if err := run(ctx, s, mode, in, pools, after, res); err != nil {
		return nil, err
	}
	if after != nil && mode == Optimal {
		res.Skipped = append(res.Skipped, "the change (After): only the karpenter mode runs it to Karpenter's steady state")
	}
	res.Assumptions = append(res.Assumptions, ZoneAssumptions(res.Karpenter)...)
	res.Assumptions = append(res.Assumptions, ZoneAssumptions(res.Optimal)...)
	return res, nil
}

// simPools are the input's NodePools as the cluster holds them, with their node classes;
// res gets the objects left out (Skipped), the defaults assumed and the pools' names.
func simPools(ctx context.Context, s *analysis.Analyzer, in Input, res *Result) ([]simmodel.SimPool, error) {
	classes := map[nodeClassKey]cloud.NodeClass{}
	for _, body := range in.NodeClasses {
		obj := deepCopy(body)
		gk, name := nodeClassKind(s.Clouds(), obj), nameOf(obj)
		c, ok := s.Clouds().ForGroup(gk.Group)
		if !ok || !s.Clouds().Owns(gk.Group, gk.Kind) {
			res.Skipped = append(res.Skipped, fmt.Sprintf("%s/%s: no registered cloud serves the node-class kind %s", gk.Kind, name, gk))
			continue
		}
		// The API server's defaults first, where this build has the kind's CRD.
		if k := kinds.ForGroupKind(gk); k != nil {
			if v, err := crdvalidate.For(k.GVK); err == nil {
				v.Default(obj)
			}
		}
		nc, err := c.DecodeNodeClass(obj)
		if err != nil {
			res.Skipped = append(res.Skipped, fmt.Sprintf("%s/%s: %v (pools using it get the defaults)", gk.Kind, name, err))
			continue
		}
		classes[keyOf(gk, name)] = nc
	}
	var pools []simmodel.SimPool
	for _, body := range in.NodePools {
		p, skip, err := defaultedPool(ctx, body)
		if err != nil {
			return nil, err
		}
		if skip != "" {
			res.Skipped = append(res.Skipped, skip)
			continue
		}
		ref := nodeClassRefOf(s.Clouds(), p)
		nc, ok := classes[keyOf(ref, p.NodeClassName())]
		if !ok {
			res.Assumptions = append(res.Assumptions, fmt.Sprintf("NodePool/%s: %s %q is not in the input; its defaults are assumed", p.Name, ref.Kind, p.NodeClassName()))
		}
		pools = append(pools, simmodel.SimPool{Pool: p, NodeClass: nc})
		res.Pools = append(res.Pools, p.Name)
	}
	return pools, nil
}

// defaultedPool reads a NodePool body as its cluster would hold it: validated by the CRD of
// its cloud and defaulted by it. skip says why a pool is left out: the API server would reject
// it, or it cannot be read.
func defaultedPool(ctx context.Context, body map[string]any) (p *analysis.Pool, skip string, err error) {
	obj := deepCopy(body)
	v, err := crdvalidate.NodePoolFor(kinds.NodePool.GVK, crdvalidate.NodePoolGroup(obj))
	if err != nil {
		return nil, "", err
	}
	if errs := v.Validate(ctx, obj); len(errs) > 0 {
		return nil, fmt.Sprintf("NodePool/%s: the API server would reject it", nameOf(obj)), nil
	}
	v.Default(obj)
	if p, err = analysis.PoolFromObject(obj); err != nil {
		return nil, fmt.Sprintf("NodePool/%s: %v", nameOf(obj), err), nil
	}
	return p, "", nil
}

// run dispatches on the mode: karpenter is Karpenter's decision as the emulation makes it
// (runKarpenter), optimal the optimum's packing (optimal.Simulate).
func run(_ context.Context, s *analysis.Analyzer, mode string, in Input, pools []simmodel.SimPool, after *PredictionInput, res *Result) error {
	if mode == Karpenter || mode == Both {
		if err := runKarpenter(s, in, pools, after, res); err != nil {
			return err
		}
	}
	if mode == Optimal || mode == Both {
		oin := optimalInput(in, pools, res)
		// Karpenter's packing is feasible, so the optimum starts from it; in the optimal mode
		// alone it is computed for that and not reported.
		oin.Feasible = res.Karpenter
		if in.Start != nil && len(in.Start.Nodes) > 0 {
			// Karpenter's packing uses the running nodes, which the optimum does not hold.
			oin.Feasible = nil
			res.Assumptions = append(res.Assumptions, "the optimum packs every pending pod onto new nodes: the running nodes are not part of it")
		}
		if oin.Feasible == nil {
			pin := predictionInput(in, pools)
			pin.ExistingNodes = nil
			pin.NoTieRange = true
			feasible, err := Predict(s, pin)
			if err != nil {
				return err
			}
			oin.Feasible = feasible
		}
		sim, err := optimal.Simulate(s, oin)
		if err != nil {
			return err
		}
		res.Optimal = sim
	}
	return nil
}

// runKarpenter is Karpenter's own decision (Predict); with after, its steady state runs on
// to the change's.
func runKarpenter(s *analysis.Analyzer, in Input, pools []simmodel.SimPool, after *PredictionInput, res *Result) error {
	pin := predictionInput(in, pools)
	sim, err := Predict(s, pin)
	if err != nil {
		return err
	}
	res.Karpenter = sim
	if res.Provisioned, err = PredictRounds(s, pin); err != nil {
		return err
	}
	if !in.SteadyState {
		return nil
	}
	if len(pin.Pods) > SettleMaxPods {
		res.Assumptions = append(res.Assumptions, fmt.Sprintf("the steady state is not computed above %d pods (this input has %d): the first round and the provisioning rounds are shown", SettleMaxPods, len(pin.Pods)))
		return nil
	}
	sin := SettleInput{Before: pin, PDBs: in.PDBs}
	if after != nil && len(after.Pods) > SettleMaxPods {
		res.Assumptions = append(res.Assumptions, fmt.Sprintf("the steady state after the change is not computed above %d pods (the change has %d)", SettleMaxPods, len(after.Pods)))
	} else if after != nil {
		sin.After, sin.AfterPDBs = after, nonNilPDBs(in.After.PDBs)
		sin.NodeClassHash = nodeClassHasher(s, pin.Pools, after.Pools, in.NodeClasses, in.After.NodeClasses)
	}
	if sin.Start, sin.StartTime = in.Start.settleStart(); sin.Start != nil {
		// The disruption emulation holds the running nodes itself.
		sin.Before.ExistingNodes = nil
	}
	res.Settled, err = Settle(s, sin)
	return err
}

// SettleMaxPods bounds the input Simulate runs to a steady state: each consolidation pass
// re-runs the scheduler per candidate node, so the cost grows with nodes times pods.
const SettleMaxPods = 5000

// predictionInput is the cluster as Karpenter's decision takes it, with the pods of each
// workload counted under the object that owns them.
// The shaped workloads' pods come first and carry their workload's name as the reader's pods do.
func predictionInput(in Input, pools []simmodel.SimPool) PredictionInput {
	var pods []*corev1.Pod
	for _, w := range in.Workloads {
		for i := range w.Count {
			p := w.Pod(i)
			p.Annotations = map[string]string{workload.OwnerAnnotation: w.Name}
			pods = append(pods, p)
		}
	}
	pin := PredictionInput{Region: in.Region, Pools: pools, Pods: append(pods, in.Pods...), DaemonSets: in.DaemonSets, WorkloadOf: WorkloadOf,
		ExistingNodes: in.Start.ExistingNodes()}
	if len(in.DaemonOverhead) > 0 {
		pin.DaemonSets = append([]*corev1.Pod{DaemonSetPod("daemonset-overhead", in.DaemonOverhead)}, in.DaemonSets...)
	}
	return pin
}

// nodeClassKey names a node class as a nodeClassRef does (the group in lower case, as the
// registry matches it).
type nodeClassKey struct{ group, kind, name string }

func keyOf(gk schema.GroupKind, name string) nodeClassKey {
	return nodeClassKey{strings.ToLower(gk.Group), gk.Kind, name}
}

// nodeClassKind is the group and kind of a node-class body; one that names neither is taken
// as the default cloud's first node-class kind (the AKSNodeClass inputs of before the seam).
func nodeClassKind(clouds *cloud.Registry, obj map[string]any) schema.GroupKind {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	if apiVersion == "" && kind == "" {
		return clouds.Default().NodeClassKinds()[0]
	}
	gv, _ := schema.ParseGroupVersion(apiVersion)
	return schema.GroupKind{Group: gv.Group, Kind: kind}
}

// nodeClassRefOf is the group and kind a pool's nodeClassRef names (its serving cloud's first
// kind when it names none).
func nodeClassRefOf(clouds *cloud.Registry, p *analysis.Pool) schema.GroupKind {
	if ref := p.Spec.Template.Spec.NodeClassRef; ref != nil && ref.Kind != "" {
		return schema.GroupKind{Group: ref.Group, Kind: ref.Kind}
	}
	return simmodel.SimPool{Pool: p}.Cloud(clouds).NodeClassKinds()[0]
}

func nameOf(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	n, _ := meta["name"].(string)
	return n
}

func deepCopy(m map[string]any) map[string]any {
	return deepCopyValue(m).(map[string]any)
}

func deepCopyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopyValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopyValue(e)
		}
		return out
	}
	return v
}

// cloudAssumptions are what the clouds of the pools say a simulation of theirs cannot know
// offline (cloud.Assumer: on EKS the spot allocation strategy, zones and price gaps), once per
// cloud.
func cloudAssumptions(s *analysis.Analyzer, region string, pools []simmodel.SimPool) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range pools {
		c := p.Cloud(s.Clouds())
		if seen[c.Name()] {
			continue
		}
		seen[c.Name()] = true
		if a, ok := c.(cloud.Assumer); ok {
			out = append(out, a.SimulationAssumptions(strings.ToLower(region))...)
		}
	}
	return out
}
