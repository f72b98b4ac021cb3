package simreport

import (
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// Steady is simulation.SteadyState for programs.
type Steady struct {
	// Label says what the state is: Karpenter's steady state, or the bound that ended the run.
	Label      string  `json:"label"`
	Nodes      []Node  `json:"nodes"`
	HourlyCost float64 `json:"hourlyCost"`
	Currency   string  `json:"currency"`
	Pending    int     `json:"pending"`
	// Disruptions are in order of time; SecondsToSteadyState is from the start to the last change.
	Disruptions          []Disruption   `json:"disruptions"`
	Totals               map[string]int `json:"totals"`
	PodsEvicted          int            `json:"podsEvicted"`
	SecondsToSteadyState float64        `json:"secondsToSteadyState"`
	Steady               bool           `json:"steady"`
	HitHorizon           bool           `json:"hitHorizon,omitempty"`
	HitBound             bool           `json:"hitBound,omitempty"`
	Blocked              []Blocked      `json:"blocked"`
	Assumptions          []string       `json:"assumptions"`
}

// Disruption is one disruption on the way, for programs.
type Disruption struct {
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

// Blocked is a node that stays, and why, for programs.
type Blocked struct {
	Node    simulation.NodeRef `json:"node"`
	Reason  string             `json:"reason"`
	Detail  string             `json:"detail"`
	Drifted bool               `json:"drifted,omitempty"`
}

// ToSteady is the run for programs; nil for none. cluster names the nodes' cluster.
func ToSteady(cluster string, v *simulation.SteadyState) *Steady {
	if v == nil {
		return nil
	}
	out := &Steady{Label: simulation.SteadyLabel(v), Nodes: Nodes(cluster, v.Nodes), HourlyCost: simulation.Round(v.HourlyCost), Currency: money.Code(v.Currency),
		Pending: v.Pending, Disruptions: []Disruption{}, Totals: v.Totals, PodsEvicted: v.PodsEvicted, SecondsToSteadyState: v.TimeToSteady.Seconds(),
		Steady: v.Steady, HitHorizon: v.HitHorizon, HitBound: v.HitBound, Blocked: []Blocked{}, Assumptions: nonNilStrings(v.Assumptions)}
	for _, d := range v.Disruptions {
		out.Disruptions = append(out.Disruptions, Disruption{Seconds: d.At.Seconds(), Reason: d.Reason, Method: d.Method, Removed: nonNilRefs(d.Removed),
			Replacements: nonNilRefs(d.Replacements), PodsEvicted: d.PodsEvicted, EstimatedSavingsPerHour: d.Savings})
	}
	for _, b := range v.Blocked {
		out.Blocked = append(out.Blocked, Blocked{Node: b.Node, Reason: b.Reason, Detail: b.Detail, Drifted: b.Drifted})
	}
	return out
}

func nonNilRefs(r []simulation.NodeRef) []simulation.NodeRef {
	if r == nil {
		return []simulation.NodeRef{}
	}
	return r
}

// Settled is the steady state before, and after when a change was given, for programs.
func Settled(cluster string, s *simulation.Settled) (before, after *Steady) {
	if s == nil {
		return nil, nil
	}
	return ToSteady(cluster, s.Before), ToSteady(cluster, s.After)
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Node is a node for programs: its pool, instance type, capacity type, zone, pods per
// workload and list price.
type Node struct {
	Cluster      string `json:"cluster"`
	Pool         string `json:"pool"`
	InstanceType string `json:"instanceType"`
	CapacityType string `json:"capacityType"`
	Zone         string `json:"zone"`
	// ZoneAssumed: the catalog does not list the size in Zone (simmodel.SimNode.ZoneAssumed).
	ZoneAssumed bool           `json:"zoneAssumed,omitempty"`
	Pods        int            `json:"pods"`
	Workloads   map[string]int `json:"workloads"`
	HourlyPrice float64        `json:"hourlyPrice"`
	Currency    string         `json:"currency"`
}

// Nodes are the nodes for programs, each naming its cluster.
func Nodes(cluster string, nodes []simmodel.SimNode) []Node {
	out := []Node{}
	for _, n := range nodes {
		jn := Node{Cluster: cluster, Pool: n.Pool, InstanceType: n.SKU, CapacityType: n.CapacityType, Zone: n.Zone, ZoneAssumed: n.ZoneAssumed, Workloads: map[string]int{}, HourlyPrice: n.HourlyPrice, Currency: money.Code(n.Currency)}
		for _, p := range n.Pods {
			jn.Pods += p.Count
			jn.Workloads[p.Workload] += p.Count
		}
		out = append(out, jn)
	}
	return out
}
