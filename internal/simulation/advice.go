package simulation

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// AdviceThreshold is how far Karpenter's cost may exceed the optimum before edits are tried:
// within 10 % the difference is the price of Karpenter's greedy, online decision, not of the
// NodePool's shape.
const AdviceThreshold = 1.10

// MaxAdviceRuns bounds the predictions one cluster's advice runs (each is a full Karpenter
// scheduling round over the cluster's pods).
const MaxAdviceRuns = 16

// skuCPUCaps are the `<cpu label> Lt N` caps tried: N-1 vCPU at most, the sizes Azure and EC2
// sell (8, 16, 32, 64) included.
var skuCPUCaps = []int{9, 17, 33, 65}

// The AKS vCPU key of the edits; a pool's own cloud names them (cloud.Vocabulary: CPUKey,
// FamilyKey, CategoryKey), so an EKS pool's edits cap karpenter.k8s.aws/instance-cpu and widen
// instance-family or instance-category.
const skuCPUKey = "karpenter.azure.com/sku-cpu"

// Edit is one change to a NodePool's requirements.
type Edit struct {
	Pool string `json:"pool"`
	// Requirement is the requirement to add (it replaces the pool's requirement on the same key
	// and operator when Replaces is set); for Remove, the requirement to delete.
	Requirement corev1.NodeSelectorRequirement `json:"requirement"`
	Replaces    bool                           `json:"replaces,omitempty"`
	Remove      bool                           `json:"remove,omitempty"`
	// AssumesInterruptible is set for edits that allow spot: the pods must tolerate eviction.
	AssumesInterruptible bool `json:"assumesInterruptible,omitempty"`
}

// Describe says the edit in words: "add karpenter.azure.com/sku-cpu Lt 33 to NodePool general".
func (e Edit) Describe() string {
	r := fmt.Sprintf("%s %s %s", e.Requirement.Key, e.Requirement.Operator, strings.Join(e.Requirement.Values, ","))
	switch {
	case e.Remove:
		return fmt.Sprintf("remove the requirement %s from NodePool %s", r, e.Pool)
	case e.Replaces:
		return fmt.Sprintf("set the requirement %s on NodePool %s (replacing its %s %s)", r, e.Pool, e.Requirement.Key, e.Requirement.Operator)
	}
	return fmt.Sprintf("add the requirement %s to NodePool %s", r, e.Pool)
}

// Fix says what to change in the NodePool, with the requirement in YAML and HCL.
func (e Edit) Fix() string {
	verb := "add to"
	if e.Remove {
		verb = "remove from"
	}
	return verb + " spec.template.spec.requirements: " + e.YAML() + " (HCL, template.requirements: " + e.HCL() + ")"
}

// YAML is the requirement as a line of spec.template.spec.requirements.
func (e Edit) YAML() string {
	return fmt.Sprintf("- {key: %s, operator: %s, values: [%s]}", e.Requirement.Key, e.Requirement.Operator, quoted(e.Requirement.Values, ", "))
}

// HCL is the requirement as an element of the karpenter_node_pool resource's requirements.
func (e Edit) HCL() string {
	return fmt.Sprintf("{ key = %q, operator = %q, values = [%s] }", e.Requirement.Key, string(e.Requirement.Operator), quoted(e.Requirement.Values, ", "))
}

// Trial is one edit's outcome under Karpenter's decision (Predict).
type Trial struct {
	Edit          Edit    `json:"edit"`
	HourlyCost    float64 `json:"hourlyCost"`
	Unschedulable int     `json:"unschedulable"`
	// Kept says whether the edit keeps every workload as schedulable as before.
	Kept bool `json:"kept"`
}

// Advice is the cheapest verified edit for a cluster whose Karpenter cost exceeds the optimum
// by more than AdviceThreshold: every number is a prediction of Karpenter's own decision (the
// emulation re-run with the edit), except OptimalHourlyCost and LowerBound.
type Advice struct {
	Edit              Edit    `json:"edit"`
	HourlyCost        float64 `json:"hourlyCost"`
	KarpenterCost     float64 `json:"karpenterHourlyCost"`
	OptimalHourlyCost float64 `json:"optimalHourlyCost"`
	LowerBound        float64 `json:"lowerBound"`
	Saving            float64 `json:"saving"`
	SavingPercent     float64 `json:"savingPercent"`
	// Currency is the ISO 4217 code of every cost here (the prediction's).
	Currency string `json:"currency,omitempty"`
	// State is the state of Karpenter's the advice judged, with and without each edit:
	// AdviceFirstRound or AdviceSteadyState. Every Karpenter cost here is of that state.
	State string `json:"state"`
	// Spot is the edit that allows spot, when it is cheaper still than Edit: it is not the
	// advice because it assumes the pods tolerate eviction, which the plan cannot see.
	Spot *Trial `json:"spot,omitempty"`
	// Trials are every edit tried, in order, with their predicted cost.
	Trials []Trial `json:"trials"`
}

// The states an advice judges.
const (
	// AdviceFirstRound is Karpenter's first provisioning round on an empty cluster (Predict).
	AdviceFirstRound = "first round"
	// AdviceSteadyState is Karpenter's steady state, emulated on a simulated clock (Settle).
	AdviceSteadyState = "steady state"
)

// StateText names the state judged, for a sentence: "at its steady state (emulated)" or "in
// its first round".
func (a *Advice) StateText() string {
	if a.State == AdviceSteadyState {
		return "at its steady state (emulated)"
	}
	return "in its first round"
}

// Message is the finding's text. It names the state it judged.
func (a *Advice) Message() string {
	m := func(v float64) string { return money.Format(a.Currency, v, 2) + "/h" }
	state := "Karpenter's first round launches nodes for %s"
	if a.State == AdviceSteadyState {
		state = "Karpenter's steady state (emulated: provisioning, emptiness, drift and consolidation) costs %s"
	}
	msg := fmt.Sprintf(state+" where the cheapest packing found costs %s (lower bound %s); "+
		"edit: %s; Karpenter's %s with it costs %s, saving %s (%.0f %%), with no pod left pending that was not before; list prices. YAML: `%s`; HCL: `%s`",
		m(a.KarpenterCost), m(a.OptimalHourlyCost), m(a.LowerBound), a.Edit.Describe(), a.State, m(a.HourlyCost), m(a.Saving), a.SavingPercent, a.Edit.YAML(), a.Edit.HCL())
	if a.Edit.AssumesInterruptible {
		msg += "; this assumes the pool's pods tolerate spot eviction (30 seconds' notice)"
	}
	if a.Spot != nil {
		msg += fmt.Sprintf("; allowing spot instead (%s) would make it %s if the pods tolerate eviction at 30 seconds' notice", a.Spot.Edit.YAML(), m(a.Spot.HourlyCost))
	}
	return msg
}

// Advise tries a bounded set of NodePool edits (cap sku-cpu, allow spot on an on-demand-only
// pool, drop a sku-family restriction) when Karpenter's cost exceeds the optimum by more than
// AdviceThreshold, re-running Karpenter's decision for each, and returns the cheapest edit that
// leaves no workload with more pending pods than before. An edit that allows spot is the advice
// only when no other edit saves anything (else it is given beside it, as Spot); nil when the result has no Karpenter
// or optimal mode, is within the threshold, or no edit saves anything.
//
// Where the result has Karpenter's steady state (Result.Settled, from an empty cluster), the
// advice judges that state, with and without each edit: what the pools cost once Karpenter has
// provisioned and consolidated, not its first round. Advice.State says which.
func Advise(s *analysis.Analyzer, in Input, res *Result) (*Advice, error) {
	if res == nil || len(res.simPools) == 0 {
		return nil, nil
	}
	pin := predictionInput(in, res.simPools)
	if st := res.Settled; st != nil && st.Before != nil && in.Start == nil {
		return adviseSteady(s, pin, in.PDBs, st.Before, res.Optimal)
	}
	return AdvisePrediction(s, pin, res.Karpenter, res.Optimal)
}

// AdvisePrediction is Advise for a prediction's input (pin, whose Pools are edited one at a
// time) and its two results: Karpenter's first round (Predict of pin) and the optimum.
func AdvisePrediction(s *analysis.Analyzer, pin PredictionInput, karpenter, optimal *simmodel.Simulation) (*Advice, error) {
	if karpenter == nil || optimal == nil || len(pin.Pools) == 0 {
		return nil, nil
	}
	return advise(s, pin, AdviceFirstRound, judged{karpenter.HourlyCost, pendingCounts(karpenter), karpenter.Currency}, optimal, func(edited PredictionInput) (judged, error) {
		edited.NoTieRange = true // a trial compares decisions; the range is the prediction's
		sim, err := Predict(s, edited)
		if err != nil {
			return judged{}, err
		}
		return judged{sim.HourlyCost, pendingCounts(sim), sim.Currency}, nil
	})
}

// adviseSteady is Advise on Karpenter's steady state: each edit's pools are run to their own
// steady state from an empty cluster, with the same PodDisruptionBudgets.
func adviseSteady(s *analysis.Analyzer, pin PredictionInput, pdbs []*policyv1.PodDisruptionBudget, steady *SteadyState, optimal *simmodel.Simulation) (*Advice, error) {
	if optimal == nil || len(pin.Pools) == 0 {
		return nil, nil
	}
	total := podsPerWorkload(pin)
	return advise(s, pin, AdviceSteadyState, steadyJudged(steady, total), optimal, func(edited PredictionInput) (judged, error) {
		st, err := Settle(s, SettleInput{Before: edited, PDBs: pdbs})
		if err != nil {
			return judged{}, err
		}
		return steadyJudged(st.Before, total), nil
	})
}

// judged is one state's cost and pending pods by workload.
type judged struct {
	cost     float64
	pending  map[string]int
	currency string
}

// steadyJudged is a steady state's cost, and its pending pods by workload: the workload's pods
// less those its nodes hold.
func steadyJudged(v *SteadyState, total map[string]int) judged {
	pending := maps.Clone(total)
	for _, n := range v.Nodes {
		for _, pc := range n.Pods {
			pending[pc.Workload] -= pc.Count
		}
	}
	for w, n := range pending {
		if n <= 0 {
			delete(pending, w)
		}
	}
	return judged{v.HourlyCost, pending, v.Currency}
}

// podsPerWorkload counts the input's pods by the workload the nodes' pod counts name them by
// (prepare's grouping).
func podsPerWorkload(pin PredictionInput) map[string]int {
	ws, _ := simmodel.GroupPods(pin.Pods)
	if pin.WorkloadOf != nil {
		ws, _ = namedGroups(pin.Pods, pin.WorkloadOf)
	}
	out := map[string]int{}
	for _, w := range ws {
		out[w.Name] += w.Count
	}
	return out
}

// advise tries the candidates' edits with trial (Karpenter's state in the judged kind) and
// returns the cheapest that leaves no workload with more pending pods than now.
func advise(s *analysis.Analyzer, pin PredictionInput, state string, now judged, optimal *simmodel.Simulation, trial func(PredictionInput) (judged, error)) (*Advice, error) {
	before, opt := now.cost, optimal.HourlyCost
	if before <= AdviceThreshold*opt {
		return nil, nil
	}
	pending := now.pending
	var best, spot *Trial
	var trials []Trial
	for _, c := range candidates(s.Clouds(), pin.Pools) {
		edited := pin
		edited.Pools = slices.Clone(pin.Pools)
		edited.Pools[c.index] = simmodel.SimPool{Pool: analysis.NewPool(c.nodePool), NodeClass: pin.Pools[c.index].NodeClass}
		got, err := trial(edited)
		if err != nil {
			return nil, err
		}
		t := Trial{Edit: c.edit, HourlyCost: Round(got.cost), Kept: true}
		for w, n := range got.pending {
			t.Unschedulable += n
			if n > pending[w] {
				t.Kept = false
			}
		}
		trials = append(trials, t)
		if !t.Kept || t.HourlyCost >= before {
			continue
		}
		// Edits that allow spot compete apart: they assume what the plan cannot see.
		pick := &best
		if c.edit.AssumesInterruptible {
			pick = &spot
		}
		if *pick == nil || t.HourlyCost < (*pick).HourlyCost {
			*pick = &t
		}
	}
	if best == nil {
		best, spot = spot, nil
	}
	if best == nil {
		return nil, nil
	}
	if spot != nil && (spot.HourlyCost >= best.HourlyCost || spot.Unschedulable > best.Unschedulable) {
		spot = nil
	}
	a := &Advice{Edit: best.Edit, HourlyCost: best.HourlyCost, Currency: money.Code(now.currency), State: state, Spot: spot, Trials: trials}
	a.KarpenterCost, a.OptimalHourlyCost, a.LowerBound = Round(before), Round(opt), Round(optimal.LowerBound)
	a.Saving = Round(before - a.HourlyCost)
	a.SavingPercent = math.Round(1000*a.Saving/before) / 10
	return a, nil
}

type candidate struct {
	index    int
	nodePool *karpv1.NodePool
	edit     Edit
}

// candidates are the edits tried, at most MaxAdviceRuns in all, taken from the pools in turn:
// per pool the caps of its cloud's vCPU label below its own, spot allowed when it is on-demand
// only, and its family (or category) restriction removed.
func candidates(clouds *cloud.Registry, pools []simmodel.SimPool) []candidate {
	perPool := make([][]candidate, len(pools))
	for i, sp := range pools {
		var out []candidate
		np := sp.Pool.NodePool
		reqs := np.Spec.Template.Spec.Requirements
		words := cloud.VocabularyOf(sp.Cloud(clouds))
		skuCPUKey := words.CPUKey
		widened := []string{words.FamilyKey, words.CategoryKey}
		capNow := math.MaxInt
		for _, r := range reqs {
			if r.Key == skuCPUKey && r.Operator == corev1.NodeSelectorOpLt && len(r.Values) == 1 {
				if v, err := strconv.Atoi(r.Values[0]); err == nil {
					capNow = min(capNow, v)
				}
			}
		}
		for _, n := range skuCPUCaps {
			if n >= capNow || skuCPUKey == "" {
				continue
			}
			r := corev1.NodeSelectorRequirement{Key: skuCPUKey, Operator: corev1.NodeSelectorOpLt, Values: []string{strconv.Itoa(n)}}
			out = append(out, candidate{i, withRequirement(np, r, true), Edit{Pool: np.Name, Requirement: r, Replaces: capNow != math.MaxInt}})
		}
		if onDemandOnly(reqs) {
			r := corev1.NodeSelectorRequirement{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.CapacityTypeSpot, karpv1.CapacityTypeOnDemand}}
			out = append(out, candidate{i, withRequirement(np, r, true), Edit{Pool: np.Name, Requirement: r, Replaces: true, AssumesInterruptible: true}})
		}
		for _, r := range reqs {
			if r.Key != "" && slices.Contains(widened, r.Key) && (r.Operator == corev1.NodeSelectorOpIn || r.Operator == corev1.NodeSelectorOpNotIn) {
				cp := np.DeepCopy()
				cp.Spec.Template.Spec.Requirements = slices.DeleteFunc(cp.Spec.Template.Spec.Requirements, func(x karpv1.NodeSelectorRequirementWithMinValues) bool {
					return x.Key == r.Key && x.Operator == r.Operator
				})
				out = append(out, candidate{i, cp, Edit{Pool: np.Name, Requirement: corev1.NodeSelectorRequirement{Key: r.Key, Operator: r.Operator, Values: r.Values}, Remove: true}})
			}
		}
		perPool[i] = out
	}
	// Round robin over the pools, so that the bound leaves no pool untried.
	var out []candidate
	for k := 0; len(out) < MaxAdviceRuns; k++ {
		more := false
		for _, cs := range perPool {
			if k < len(cs) && len(out) < MaxAdviceRuns {
				out = append(out, cs[k])
				more = true
			}
		}
		if !more {
			break
		}
	}
	return out
}

// withRequirement is the NodePool with r added, replacing its requirements on the same key and
// operator when replace is set.
func withRequirement(np *karpv1.NodePool, r corev1.NodeSelectorRequirement, replace bool) *karpv1.NodePool {
	cp := np.DeepCopy()
	reqs := cp.Spec.Template.Spec.Requirements
	if replace {
		reqs = slices.DeleteFunc(reqs, func(x karpv1.NodeSelectorRequirementWithMinValues) bool {
			return x.Key == r.Key && x.Operator == r.Operator
		})
	}
	cp.Spec.Template.Spec.Requirements = append(reqs, karpv1.NodeSelectorRequirementWithMinValues{Key: r.Key, Operator: r.Operator, Values: r.Values})
	return cp
}

func onDemandOnly(reqs []karpv1.NodeSelectorRequirementWithMinValues) bool {
	for _, r := range reqs {
		if r.Key == karpv1.CapacityTypeLabelKey && r.Operator == corev1.NodeSelectorOpIn {
			return slices.Equal(r.Values, []string{karpv1.CapacityTypeOnDemand})
		}
	}
	return false
}

func pendingCounts(sim *simmodel.Simulation) map[string]int {
	out := map[string]int{}
	for _, u := range sim.Unschedulable {
		out[u.Workload] += u.Count
	}
	return out
}

func quoted(vs []string, sep string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, sep)
}
