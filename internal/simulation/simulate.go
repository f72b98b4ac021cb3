package simulation

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal"
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
}

// Result is the outcome in the modes asked for; a mode not asked for is nil.
type Result struct {
	Karpenter, Optimal *simmodel.Simulation
	// Pools are the NodePools simulated, by name; Skipped says why others were not.
	Pools   []string
	Skipped []string
	// Assumptions say where the result is not what Karpenter would do, and how.
	Assumptions []string
	// simPools are the pools as simulated (validated, defaulted), for Advise and DisruptionFindings.
	simPools []simmodel.SimPool
}

// LowerBound is the proven lower bound on the hourly cost (from the optimal mode when it ran).
func (r *Result) LowerBound() float64 {
	for _, s := range []*simmodel.Simulation{r.Optimal, r.Karpenter} {
		if s != nil {
			return s.LowerBound
		}
	}
	return 0
}

// Primary is the result a single figure should come from: Karpenter's when it ran.
func (r *Result) Primary() (string, *simmodel.Simulation) {
	if r.Karpenter != nil {
		return Karpenter, r.Karpenter
	}
	return Optimal, r.Optimal
}

// Simulate runs the cluster in the mode.
func Simulate(ctx context.Context, s *analysis.Solver, in Input, mode string) (*Result, error) {
	if !slices.Contains(Modes, mode) {
		return nil, fmt.Errorf("unknown mode %q (want %s)", mode, strings.Join(Modes, ", "))
	}
	res := &Result{}
	classes := map[string]aks.NodeClass{}
	for _, body := range in.NodeClasses {
		obj := deepCopy(body)
		crdvalidate.MustFor(kinds.AKSNodeClass.GVK).Default(obj)
		nc, err := analysis.NodeClassFromObject(obj)
		name := nameOf(obj)
		if err != nil {
			res.Skipped = append(res.Skipped, fmt.Sprintf("AKSNodeClass/%s: %v (pools using it get the defaults)", name, err))
			continue
		}
		classes[name] = nc
	}
	var pools []simmodel.SimPool
	for _, body := range in.NodePools {
		obj := deepCopy(body)
		v := crdvalidate.MustFor(kinds.NodePool.GVK)
		if errs := v.Validate(ctx, obj); len(errs) > 0 {
			res.Skipped = append(res.Skipped, fmt.Sprintf("NodePool/%s: the API server would reject it", nameOf(obj)))
			continue
		}
		v.Default(obj)
		p, err := analysis.PoolFromObject(obj)
		if err != nil {
			res.Skipped = append(res.Skipped, fmt.Sprintf("NodePool/%s: %v", nameOf(obj), err))
			continue
		}
		nc, ok := classes[p.NodeClassName()]
		if !ok {
			res.Assumptions = append(res.Assumptions, fmt.Sprintf("NodePool/%s: AKSNodeClass %q is not in the input; its defaults are assumed", p.Name, p.NodeClassName()))
		}
		pools = append(pools, simmodel.SimPool{Pool: p, NodeClass: nc})
		res.Pools = append(res.Pools, p.Name)
	}
	res.simPools = pools
	if err := run(ctx, s, mode, in, pools, res); err != nil {
		return nil, err
	}
	return res, nil
}

// run dispatches on the mode: karpenter is Karpenter's decision as the emulation makes it
// (runKarpenter), optimal the optimum's packing (optimal.Simulate).
func run(_ context.Context, s *analysis.Solver, mode string, in Input, pools []simmodel.SimPool, res *Result) error {
	if mode == Karpenter || mode == Both {
		if err := runKarpenter(s, in, pools, res); err != nil {
			return err
		}
	}
	if mode == Optimal || mode == Both {
		sim, err := optimal.Simulate(s, optimalInput(in, pools, res))
		if err != nil {
			return err
		}
		res.Optimal = sim
	}
	return nil
}

// runKarpenter is Karpenter's own decision (Predict), with the pods of each workload
// counted under the object that owns them.
func runKarpenter(s *analysis.Solver, in Input, pools []simmodel.SimPool, res *Result) error {
	sim, err := Predict(s, PredictionInput{Region: in.Region, Pools: pools, Pods: in.Pods, DaemonSets: in.DaemonSets, WorkloadOf: ownerName})
	if err != nil {
		return err
	}
	res.Karpenter = sim
	return nil
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
