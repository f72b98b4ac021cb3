package simulate

import (
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// jsonSteady is simulation.SteadyState for programs.
type jsonSteady struct {
	// Label says what the state is: Karpenter's steady state, or the bound that ended the run.
	Label      string     `json:"label"`
	Nodes      []jsonNode `json:"nodes"`
	HourlyCost float64    `json:"hourlyCost"`
	Currency   string     `json:"currency"`
	Pending    int        `json:"pending"`
	// Disruptions are in order of time; SecondsToSteadyState is from the start to the last change.
	Disruptions          []jsonDisruption `json:"disruptions"`
	Totals               map[string]int   `json:"totals"`
	PodsEvicted          int              `json:"podsEvicted"`
	SecondsToSteadyState float64          `json:"secondsToSteadyState"`
	Steady               bool             `json:"steady"`
	HitHorizon           bool             `json:"hitHorizon,omitempty"`
	HitBound             bool             `json:"hitBound,omitempty"`
	Blocked              []jsonBlocked    `json:"blocked"`
	Assumptions          []string         `json:"assumptions"`
}

type jsonDisruption struct {
	// Seconds is the time since the start on the simulated clock.
	Seconds      float64              `json:"seconds"`
	Reason       string               `json:"reason"`
	Method       string               `json:"method,omitempty"`
	Removed      []simulation.NodeRef `json:"removed"`
	Replacements []simulation.NodeRef `json:"replacements"`
	PodsEvicted  int                  `json:"podsEvicted"`
	// EstimatedSavingsPerHour is Karpenter's own estimate, at list prices.
	EstimatedSavingsPerHour float64 `json:"estimatedSavingsPerHour"`
}

type jsonBlocked struct {
	Node    simulation.NodeRef `json:"node"`
	Reason  string             `json:"reason"`
	Detail  string             `json:"detail"`
	Drifted bool               `json:"drifted,omitempty"`
}

func toJSONSteady(cluster string, v *simulation.SteadyState) *jsonSteady {
	if v == nil {
		return nil
	}
	out := &jsonSteady{Label: simulation.SteadyLabel(v), Nodes: jsonNodes(cluster, v.Nodes), HourlyCost: simulation.Round(v.HourlyCost), Currency: money.Code(v.Currency),
		Pending: v.Pending, Disruptions: []jsonDisruption{}, Totals: v.Totals, PodsEvicted: v.PodsEvicted, SecondsToSteadyState: v.TimeToSteady.Seconds(),
		Steady: v.Steady, HitHorizon: v.HitHorizon, HitBound: v.HitBound, Blocked: []jsonBlocked{}, Assumptions: nonNil(v.Assumptions)}
	for _, d := range v.Disruptions {
		out.Disruptions = append(out.Disruptions, jsonDisruption{Seconds: d.At.Seconds(), Reason: d.Reason, Method: d.Method, Removed: nonNilRefs(d.Removed),
			Replacements: nonNilRefs(d.Replacements), PodsEvicted: d.PodsEvicted, EstimatedSavingsPerHour: d.Savings})
	}
	for _, b := range v.Blocked {
		out.Blocked = append(out.Blocked, jsonBlocked{Node: b.Node, Reason: b.Reason, Detail: b.Detail, Drifted: b.Drifted})
	}
	return out
}

func nonNilRefs(r []simulation.NodeRef) []simulation.NodeRef {
	if r == nil {
		return []simulation.NodeRef{}
	}
	return r
}

// jsonSettled is the steady state before, and after when a change was given.
func jsonSettled(cluster string, s *simulation.Settled) (before, after *jsonSteady) {
	if s == nil {
		return nil, nil
	}
	return toJSONSteady(cluster, s.Before), toJSONSteady(cluster, s.After)
}
