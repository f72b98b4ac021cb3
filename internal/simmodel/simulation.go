package simmodel

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
)

// SimulationInput describes pending pods and the NodePools that may launch nodes for them:
// the optimum's input (internal/simulation/optimal.Simulate).
type SimulationInput struct {
	// Region is where nodes are launched; it must be in the catalog.
	Region    string
	Pools     []SimPool
	Workloads []Workload
	// DaemonOverhead is what DaemonSet pods request on every node (optional); a "pods" entry
	// counts their pod slots.
	DaemonOverhead corev1.ResourceList
	// PoolDaemonOverhead, by NodePool name, replaces DaemonOverhead on that pool's nodes: the
	// DaemonSets Karpenter would run there (their taints and requirements differ per pool).
	PoolDaemonOverhead map[string]corev1.ResourceList
	// Seed orders otherwise equal choices; a given input and seed always give the same result.
	Seed uint64
	// ConfigurationBound asks for the configuration LP bound (see Simulation.LowerBound).
	// It is within a few per cent of the optimum, where the default bound may be 10 % below.
	// It takes tens of milliseconds to seconds. Beyond maxPatternGroups pod groups the default
	// bound is reported.
	ConfigurationBound bool
	// Feasible is a packing of the same pods known to be feasible (Karpenter's decision,
	// simulation.Predict): the optimum never reports more than it (see Simulation.FromKarpenter).
	Feasible *Simulation
}

// SimPool is a NodePool with the settings of the node class it references (nil: the
// defaults of the node class of the cloud serving the pool).
type SimPool struct {
	Pool      *analysis.Pool
	NodeClass cloud.NodeClass
}

// Cloud is the cloud of clouds that serves the pool: the owner of its nodeClassRef.group, as
// the analysis resolves it.
// Currency is the ISO 4217 code of the pools' prices in the region: that of their clouds'
// price tables (money.USD without pools). When two clouds price in different currencies, it
// is the codes joined with "+", since no single figure can then add them up.
func Currency(pools []SimPool, clouds *cloud.Registry, region string) string {
	seen := map[string]bool{}
	var out []string
	for _, p := range pools {
		c := money.Code(p.Cloud(clouds).Currency(region))
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return money.USD
	}
	slices.Sort(out)
	return strings.Join(out, "+")
}

func (p SimPool) Cloud(clouds *cloud.Registry) cloud.Cloud {
	var group string
	if p.Pool != nil && p.Pool.NodePool != nil {
		if ref := p.Pool.Spec.Template.Spec.NodeClassRef; ref != nil {
			group = ref.Group
		}
	}
	return clouds.Serving(group)
}

// ResolvedNodeClass is the node class the pool's instance types are derived for. It is the
// pool's own when it belongs to the serving cloud, else that cloud's default. So a pool of
// one cloud never gets another cloud's instance types from an unknown or mistyped node class.
func (p SimPool) ResolvedNodeClass(clouds *cloud.Registry) cloud.NodeClass {
	c := p.Cloud(clouds)
	if p.NodeClass == nil || p.NodeClass.Cloud() != c.Name() {
		return c.DefaultNodeClass()
	}
	return p.NodeClass
}

// Methods label a Simulation's numbers.
const (
	// MethodKarpenter is Karpenter's own decision, as internal/simulation/karpenter emulates it.
	MethodKarpenter = "karpenter"
	// MethodOptimal is the cheapest packing internal/simulation/optimal finds, with its lower bound.
	MethodOptimal = "optimal"
)

// Simulation is the outcome: the nodes that would be launched and what they cost.
type Simulation struct {
	Region string `json:"region"`
	// Method says what the numbers are: MethodKarpenter (Predict: what Karpenter would launch)
	// or MethodOptimal (Simulate: the cheapest packing found, with its lower bound).
	Method string    `json:"method"`
	Nodes  []SimNode `json:"nodes"`
	// HourlyCost is the sum of the nodes' hourly prices.
	HourlyCost float64 `json:"hourly_cost"`
	// Currency is the ISO 4217 code of every price and cost here (Currency).
	Currency string `json:"currency,omitempty"`
	// LowerBound is a proven lower bound on the hourly cost of any set of nodes from these
	// NodePools that holds the scheduled pods within the limits. By default it is the optimum
	// of a linear programming relaxation over the admissible node types: fractional nodes,
	// resources pooled across nodes. With ConfigurationBound it is the configuration LP's:
	// fractional counts of whole node patterns, pods that fit on a node together.
	LowerBound float64 `json:"lower_bound"`
	// BoundGroups are the pod groups of the bound: pods that can use the same node offerings.
	BoundGroups    []BoundGroup    `json:"bound_groups"`
	Utilisation    Utilisation     `json:"utilisation"`
	ScheduledPods  int             `json:"scheduled_pods"`
	Unschedulable  []Unschedulable `json:"unschedulable,omitempty"`
	PriceEstimated bool            `json:"price_estimated"`
	// TieBreaks (MethodKarpenter) is how many ties the prediction met that Karpenter breaks at
	// random. Karpenter takes the first of equal alternatives in Go map order. Such ties are
	// equally loaded zones of a topology spread, the domain a pod affinity starts, and the
	// order of a pool's daemon overhead groups. The Nodes are the outcome of the emulation's
	// tie-breaks (first by name, groups by key); CostRange is over the other outcomes tried.
	TieBreaks int `json:"tie_breaks,omitempty"`
	// CostRange (MethodKarpenter, set when TieBreaks > 0) is the range of Karpenter's outcomes
	// over the tie-breaks tried.
	CostRange *CostRange `json:"cost_range,omitempty"`
	// FromKarpenter (MethodOptimal) says the nodes are Karpenter's own packing
	// (SimulationInput.Feasible): it places at least as many pods of every workload as the
	// solver's packing, and fewer pods pending or a lower cost. The lower bound is the solver's.
	FromKarpenter bool `json:"from_karpenter,omitempty"`
}

// CostRange is the range of hourly cost, node count and pending pods over the distinct
// outcomes of Karpenter's random tie-breaks that a prediction tried. When Exhaustive
// (karpenter.Enumerate's walk ended within its budget), it covers every distinct outcome.
// Otherwise it covers the outcomes found: the walk's, the Samples drawn for Expected, and the
// cheapest and dearest a cost-directed search found from them (karpenter.Extremes). So it
// bounds what Karpenter can do only when Exhaustive.
type CostRange struct {
	Min        float64 `json:"min"`
	Max        float64 `json:"max"`
	MinNodes   int     `json:"min_nodes"`
	MaxNodes   int     `json:"max_nodes"`
	MinPending int     `json:"min_pending"`
	MaxPending int     `json:"max_pending"`
	// Outcomes is how many distinct outcomes were found, Runs how many runs it took.
	Outcomes   int  `json:"outcomes"`
	Runs       int  `json:"runs"`
	Exhaustive bool `json:"exhaustive"`
	// Expected is the expected hourly cost: the mean over Samples seeded draws of Karpenter's
	// random choices (each tie's alternatives equally likely), repeats counted, so an outcome
	// Karpenter reaches more often weighs more. The nodes shown are one outcome, not the mean.
	Expected float64 `json:"expected"`
	Samples  int     `json:"samples"`
}

// SimNode is one new node.
type SimNode struct {
	Pool string `json:"pool"`
	SKU  string `json:"sku"`
	Zone string `json:"zone"`
	// ZoneAssumed is set when the catalog has no zone listing of the size in the region. Zone
	// is then one of the zones the cloud assumed it is offered in (AKS: every zone of the
	// region). It is a gap of the catalog, not the cloud's word that the size is offered there.
	ZoneAssumed    bool    `json:"zone_assumed,omitempty"`
	CapacityType   string  `json:"capacity_type"`
	HourlyPrice    float64 `json:"hourly_price"`
	Currency       string  `json:"currency,omitempty"`
	PriceEstimated bool    `json:"price_estimated"`
	// PriceSource is the price's provenance ("list 2026-08-22", "estimated: …").
	PriceSource string `json:"price_source"`
	// Pods counts the node's pods per workload, in workload order.
	Pods        []PodCount          `json:"pods"`
	Requested   corev1.ResourceList `json:"requested"`
	Allocatable corev1.ResourceList `json:"allocatable"`
}

// PodCount is how many pods of a workload a node holds.
type PodCount struct {
	Workload string `json:"workload"`
	Count    int    `json:"count"`
}

// Utilisation is requested ÷ allocatable over all new nodes (daemon overhead counts as requested).
type Utilisation struct {
	CPU    float64 `json:"cpu"`
	Memory float64 `json:"memory"`
}

// Unschedulable is a workload's pods that no NodePool can launch a node for, with the reason.
type Unschedulable struct {
	Workload string `json:"workload"`
	Count    int    `json:"count"`
	Reason   string `json:"reason"`
}

// BoundGroup is a group of the lower bound with its own LP bound (a bound for its pods alone).
type BoundGroup struct {
	Workloads []string `json:"workloads"`
	Zone      string   `json:"zone,omitempty"`
	Pods      int      `json:"pods"`
	Bound     float64  `json:"bound"`
}
