package simulate

import (
	"encoding/json"
	"io"
	"sort"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simreport"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// JSONVersion is the version of the JSON layout; it changes only incompatibly.
const JSONVersion = 1

type jsonReport struct {
	Version int    `json:"version"`
	Tool    string `json:"tool"`
	Mode    string `json:"mode"`
	// Karpenter and Optimal sum over the clusters; nil when the mode did not run.
	Karpenter  *jsonSim `json:"karpenter"`
	Optimal    *jsonSim `json:"optimal"`
	LowerBound float64  `json:"lowerBound"`
	// Currency is the ISO 4217 code of the sums; "mixed" when the clusters price in different
	// currencies, which are never added: the sums are then 0 and each mode's
	// hourlyCostByCurrency (lowerBoundByCurrency here) holds one sum per currency.
	Currency             string             `json:"currency"`
	LowerBoundByCurrency map[string]float64 `json:"lowerBoundByCurrency,omitempty"`
	Clusters             []jsonCluster      `json:"clusters"`
	Findings             []source.Finding   `json:"findings"`
	Skipped              []assemble.Skipped `json:"skipped,omitempty"`
	// Files is how many files were read.
	Files int `json:"files"`
}

type jsonCluster struct {
	Name   string `json:"name"`
	Region string `json:"region"`
	// Currency is the ISO 4217 code of the cluster's prices and costs.
	Currency    string            `json:"currency"`
	Karpenter   *jsonSim          `json:"karpenter"`
	Optimal     *jsonSim          `json:"optimal"`
	LowerBound  float64           `json:"lowerBound"`
	Pools       []string          `json:"pools"`
	Workloads   []WorkloadSummary `json:"workloads"`
	Assumptions []string          `json:"assumptions"`
	Skipped     []string          `json:"skipped"`
	// Advice: the cheapest NodePool edit verified with Karpenter's decision (KRP118).
	Advice *simulation.Advice `json:"advice,omitempty"`
	// Drift: what the input does to the running cluster given with --cluster-state.
	Drift *jsonDrift `json:"drift,omitempty"`
	// Provisioned (karpenter mode) is Karpenter's provisioning rounds run until one places
	// nothing more; Karpenter above is the first of them.
	Provisioned *jsonProvisioned `json:"provisioned,omitempty"`
	// SteadyState (karpenter mode) is Karpenter run on a simulated clock to its steady
	// state, with the disruptions on the way; SteadyStateAfter the same after a change.
	SteadyState      *simreport.Steady `json:"steadyState,omitempty"`
	SteadyStateAfter *simreport.Steady `json:"steadyStateAfter,omitempty"`
}

// jsonProvisioned is simulation.Provisioning for programs.
type jsonProvisioned struct {
	// Label says what the state is: after N provisioning rounds, not a steady state.
	Label         string              `json:"label"`
	Rounds        []jsonRound         `json:"rounds"`
	Nodes         []jsonNode          `json:"nodes"`
	HourlyCost    float64             `json:"hourlyCost"`
	Unschedulable []jsonUnschedulable `json:"unschedulable"`
	HitBound      bool                `json:"hitBound,omitempty"`
}

type jsonRound struct {
	Round           int        `json:"round"`
	Nodes           []jsonNode `json:"nodes"`
	HourlyCost      float64    `json:"hourlyCost"`
	Placed          int        `json:"placed"`
	OnExistingNodes int        `json:"onExistingNodes"`
	Pending         int        `json:"pending"`
}

func toJSONProvisioned(cluster string, p *simulation.Provisioning) *jsonProvisioned {
	if p == nil {
		return nil
	}
	out := &jsonProvisioned{Label: simulation.ProvisionedLabel(p), Rounds: []jsonRound{}, Nodes: simreport.Nodes(cluster, p.Nodes),
		HourlyCost: simulation.Round(p.HourlyCost), Unschedulable: []jsonUnschedulable{}, HitBound: p.HitBound}
	for _, r := range p.Rounds {
		out.Rounds = append(out.Rounds, jsonRound{Round: r.Round, Nodes: simreport.Nodes(cluster, r.Nodes), HourlyCost: simulation.Round(r.HourlyCost),
			Placed: r.Placed, OnExistingNodes: r.OnExistingNodes, Pending: r.Pending})
	}
	for _, u := range p.Unschedulable {
		out.Unschedulable = append(out.Unschedulable, jsonUnschedulable{Cluster: cluster, Workload: u.Workload, Count: u.Count, Reason: u.Reason})
	}
	return out
}

type jsonSim struct {
	Nodes       []jsonNode `json:"nodes"`
	HourlyCost  float64    `json:"hourlyCost"`
	MonthlyCost float64    `json:"monthlyCost"`
	Currency    string     `json:"currency"`
	// HourlyCostByCurrency (the sum over clusters only) is set when the clusters price in
	// different currencies: one sum per currency, HourlyCost and MonthlyCost are then 0.
	HourlyCostByCurrency map[string]float64    `json:"hourlyCostByCurrency,omitempty"`
	PoolCosts            []simulation.PoolCost `json:"poolCosts"`
	ScheduledPods        int                   `json:"scheduledPods"`
	Unschedulable        []jsonUnschedulable   `json:"unschedulable"`
	PriceEstimated       bool                  `json:"priceEstimated"`
	// TieBreaks and HourlyCostRange (karpenter): the ties Karpenter breaks at random and the
	// range of its outcomes over the tie-breaks tried (simmodel.CostRange); absent when none.
	TieBreaks       int            `json:"tieBreaks,omitempty"`
	HourlyCostRange *jsonCostRange `json:"hourlyCostRange,omitempty"`
	// FromKarpenter (optimal): the nodes are Karpenter's own packing, none cheaper found.
	FromKarpenter bool `json:"fromKarpenter,omitempty"`
}

type jsonCostRange struct {
	Min        float64 `json:"min"`
	Max        float64 `json:"max"`
	MinNodes   int     `json:"minNodes"`
	MaxNodes   int     `json:"maxNodes"`
	MinPending int     `json:"minPending"`
	MaxPending int     `json:"maxPending"`
	Outcomes   int     `json:"outcomes"`
	Runs       int     `json:"runs"`
	Exhaustive bool    `json:"exhaustive"`
	// Expected is the mean hourly cost over Samples seeded draws of Karpenter's random choices
	// (simmodel.CostRange.Expected).
	Expected float64 `json:"expected"`
	Samples  int     `json:"samples"`
}

// jsonNode is a node for programs.
type jsonNode = simreport.Node

type jsonUnschedulable struct {
	Cluster  string `json:"cluster"`
	Workload string `json:"workload"`
	Count    int    `json:"count"`
	Reason   string `json:"reason"`
}

func toJSONSim(cluster string, sim *simmodel.Simulation, pools []string) *jsonSim {
	if sim == nil {
		return nil
	}
	out := &jsonSim{Nodes: []jsonNode{}, Unschedulable: []jsonUnschedulable{}, HourlyCost: sim.HourlyCost, Currency: money.Code(sim.Currency),
		MonthlyCost: simulation.Round(sim.HourlyCost * analysis.HoursPerMonth), PoolCosts: simulation.PoolCosts(sim, pools),
		ScheduledPods: sim.ScheduledPods, PriceEstimated: sim.PriceEstimated, TieBreaks: sim.TieBreaks, FromKarpenter: sim.FromKarpenter}
	if r := sim.CostRange; r != nil {
		out.HourlyCostRange = &jsonCostRange{Min: simulation.Round(r.Min), Max: simulation.Round(r.Max), MinNodes: r.MinNodes, MaxNodes: r.MaxNodes,
			MinPending: r.MinPending, MaxPending: r.MaxPending, Outcomes: r.Outcomes, Runs: r.Runs, Exhaustive: r.Exhaustive,
			Expected: simulation.Round(r.Expected), Samples: r.Samples}
	}
	out.Nodes = simreport.Nodes(cluster, sim.Nodes)
	for _, u := range sim.Unschedulable {
		out.Unschedulable = append(out.Unschedulable, jsonUnschedulable{Cluster: cluster, Workload: u.Workload, Count: u.Count, Reason: u.Reason})
	}
	return out
}

// add sums b into a (nil stays nil only when both are).
func add(a, b *jsonSim) *jsonSim {
	if b == nil {
		return a
	}
	var r *jsonCostRange
	if a == nil {
		a = &jsonSim{Nodes: []jsonNode{}, Unschedulable: []jsonUnschedulable{}, PoolCosts: []simulation.PoolCost{}, Currency: b.Currency,
			HourlyCostByCurrency: map[string]float64{}}
		r = b.HourlyCostRange
	} else {
		r = addRanges(a, b)
	}
	a.HourlyCostByCurrency[b.Currency] = simulation.Round(a.HourlyCostByCurrency[b.Currency] + b.HourlyCost)
	a.Nodes = append(a.Nodes, b.Nodes...)
	a.Unschedulable = append(a.Unschedulable, b.Unschedulable...)
	a.HourlyCost = simulation.Round(a.HourlyCost + b.HourlyCost)
	a.MonthlyCost = simulation.Round(a.MonthlyCost + b.MonthlyCost)
	a.ScheduledPods += b.ScheduledPods
	a.PriceEstimated = a.PriceEstimated || b.PriceEstimated
	a.PoolCosts = append(a.PoolCosts, b.PoolCosts...)
	a.HourlyCostRange = r
	a.TieBreaks += b.TieBreaks
	return a
}

// addRanges is the range of the sum of two clusters' outcomes (they decide independently): a
// cluster without ties contributes its one outcome. Called before b is added to a.
func addRanges(a, b *jsonSim) *jsonCostRange {
	if a.HourlyCostRange == nil && b.HourlyCostRange == nil {
		return nil
	}
	of := func(s *jsonSim) jsonCostRange {
		if s.HourlyCostRange != nil {
			return *s.HourlyCostRange
		}
		pending := 0
		for _, u := range s.Unschedulable {
			pending += u.Count
		}
		return jsonCostRange{Min: s.HourlyCost, Max: s.HourlyCost, MinNodes: len(s.Nodes), MaxNodes: len(s.Nodes), MinPending: pending, MaxPending: pending, Outcomes: 1, Runs: 1, Exhaustive: true, Expected: s.HourlyCost}
	}
	x, y := of(a), of(b)
	return &jsonCostRange{Min: simulation.Round(x.Min + y.Min), Max: simulation.Round(x.Max + y.Max), MinNodes: x.MinNodes + y.MinNodes, MaxNodes: x.MaxNodes + y.MaxNodes,
		MinPending: x.MinPending + y.MinPending, MaxPending: x.MaxPending + y.MaxPending, Outcomes: x.Outcomes * y.Outcomes, Runs: x.Runs + y.Runs, Exhaustive: x.Exhaustive && y.Exhaustive,
		Expected: simulation.Round(x.Expected + y.Expected), Samples: x.Samples + y.Samples}
}

// WriteJSON renders the report for programs (layout in the command's --help and README).
func WriteJSON(w io.Writer, r *Report, toolVersion string) error {
	out := jsonReport{Version: JSONVersion, Tool: "terraform-provider-karpenter simulate " + toolVersion, Mode: r.Mode,
		Clusters: []jsonCluster{}, Findings: r.Findings, Skipped: r.Skipped, Files: r.Files}
	if out.Findings == nil {
		out.Findings = []source.Finding{}
	}
	for _, c := range r.Clusters {
		res := c.Result
		jc := jsonCluster{Name: c.Name, Region: c.Region, Karpenter: toJSONSim(c.Name, res.Karpenter, res.Pools),
			Optimal: toJSONSim(c.Name, res.Optimal, res.Pools), LowerBound: res.LowerBound(), Pools: nonNil(res.Pools),
			Workloads: c.Workloads, Assumptions: nonNil(res.Assumptions), Skipped: nonNil(res.Skipped), Advice: c.Advice, Currency: res.Currency(),
			Provisioned: toJSONProvisioned(c.Name, res.Provisioned), Drift: toJSONDrift(c.Drift)}
		jc.SteadyState, jc.SteadyStateAfter = simreport.Settled(c.Name, res.Settled)
		if jc.Workloads == nil {
			jc.Workloads = []WorkloadSummary{}
		}
		out.Karpenter, out.Optimal = add(out.Karpenter, jc.Karpenter), add(out.Optimal, jc.Optimal)
		out.LowerBound = simulation.Round(out.LowerBound + jc.LowerBound)
		out.Clusters = append(out.Clusters, jc)
	}
	lb := money.Totals{}
	for _, c := range out.Clusters {
		lb.Add(c.Currency, c.LowerBound)
	}
	out.Currency = money.USD
	if cur, _, ok := lb.Single(); ok {
		out.Currency = cur
	} else if len(lb) > 1 {
		// Never one number across currencies.
		out.Currency, out.LowerBound, out.LowerBoundByCurrency = mixedCurrency, 0, lb
	}
	for _, s := range []*jsonSim{out.Karpenter, out.Optimal} {
		if s == nil {
			continue
		}
		if len(s.HourlyCostByCurrency) > 1 {
			s.Currency, s.HourlyCost, s.MonthlyCost, s.HourlyCostRange = mixedCurrency, 0, 0, nil
		} else {
			s.HourlyCostByCurrency = nil
		}
		if s != nil {
			sort.SliceStable(s.Unschedulable, func(i, j int) bool { return s.Unschedulable[i].Cluster < s.Unschedulable[j].Cluster })
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// mixedCurrency is the currency of a sum over clusters that price in different currencies.
const mixedCurrency = "mixed"

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
