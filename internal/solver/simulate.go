package solver

import (
	"fmt"
	"math"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/instancetype"
)

// SimulationInput describes pending pods and the NodePools that may launch nodes for them.
type SimulationInput struct {
	// Region is where nodes are launched; it must be in the catalog.
	Region    string
	Pools     []SimPool
	Workloads []Workload
	// DaemonOverhead is what DaemonSet pods request on every node (optional); a "pods" entry
	// counts their pod slots.
	DaemonOverhead corev1.ResourceList
	// Seed orders otherwise equal choices; a given input and seed always give the same result.
	Seed uint64
	// ConfigurationBound asks for the configuration LP bound (see Simulation.LowerBound):
	// within a few per cent of the optimum where the default bound may be 10 % below it, but
	// it takes tens of milliseconds to seconds, and beyond maxPatternGroups pod groups the
	// default bound is reported.
	ConfigurationBound bool
}

// SimPool is a NodePool with the settings of the AKSNodeClass it references.
type SimPool struct {
	Pool      *Pool
	NodeClass instancetype.NodeClass
}

// Simulation is the outcome: the nodes that would be launched and what they cost.
type Simulation struct {
	Region string `json:"region"`
	// Method says what the numbers are: MethodKarpenter (Predict: what Karpenter would launch)
	// or MethodOptimal (Simulate: the cheapest packing found, with its lower bound).
	Method string    `json:"method"`
	Nodes  []SimNode `json:"nodes"`
	// HourlyCost is the sum of the nodes' hourly prices.
	HourlyCost float64 `json:"hourly_cost"`
	// LowerBound is a proven lower bound on the hourly cost of any set of nodes from these
	// NodePools that holds the scheduled pods within the limits. By default it is the optimum
	// of a linear programming relaxation over the admissible node types (fractional nodes,
	// resources pooled across nodes); with ConfigurationBound it is the configuration LP's
	// (fractional counts of whole node patterns: pods that fit on a node together).
	LowerBound float64 `json:"lower_bound"`
	// BoundGroups are the pod groups of the bound: pods that can use the same node offerings.
	BoundGroups    []BoundGroup    `json:"bound_groups"`
	Utilisation    Utilisation     `json:"utilisation"`
	ScheduledPods  int             `json:"scheduled_pods"`
	Unschedulable  []Unschedulable `json:"unschedulable,omitempty"`
	PriceEstimated bool            `json:"price_estimated"`
	// TieBreaks (MethodKarpenter) is how many ties the prediction met that Karpenter breaks at
	// random (it takes the first of equal alternatives in Go map order): equally loaded zones of
	// a topology spread, the domain a pod affinity starts, the order of a pool's daemon overhead
	// groups. The Nodes are the outcome of the emulation's tie-breaks (first by name, groups by
	// key); CostRange is over the other outcomes tried.
	TieBreaks int `json:"tie_breaks,omitempty"`
	// CostRange (MethodKarpenter, set when TieBreaks > 0) is the range of Karpenter's outcomes
	// over the tie-breaks tried.
	CostRange *CostRange `json:"cost_range,omitempty"`
}

// CostRange is the range of hourly cost, node count and pending pods over the distinct
// outcomes of Karpenter's random tie-breaks that a prediction tried: every combination when
// Exhaustive, else a seeded sample (at most TieRuns runs in all), so a bound of what Karpenter
// can do only when Exhaustive.
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
}

// SimNode is one new node.
type SimNode struct {
	Pool           string  `json:"pool"`
	SKU            string  `json:"sku"`
	Zone           string  `json:"zone"`
	CapacityType   string  `json:"capacity_type"`
	HourlyPrice    float64 `json:"hourly_price"`
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

// Simulate is the optimum (Method "optimal"), not Karpenter's decision (see Predict): the
// cheapest packing it finds of the pods on nodes the NodePools can launch, with a certified
// lower bound. Pods are assigned to NodePools in Karpenter's order: each pod goes to the
// highest-weight NodePool (ties by name, descending, as Karpenter orders them) whose taints it
// tolerates, whose requirements are compatible with its own, that has an instance type it fits
// on, and whose limits leave room; pods a pool's limits leave out try the next pool. Zone
// spread divides a workload's pods evenly over the zones its NodePools offer. Each node is
// priced at its cheapest offering compatible with all its pods, as Karpenter on AKS launches
// the cheapest compatible offering.
//
// Within a NodePool the pods are packed to minimise cost rather than in Karpenter's order:
// pods are taken by decreasing value (their requests priced at the LP relaxation's dual
// prices); a new node's type is the one with the lowest price per value packed when it is
// filled with its proportional share of every pending pod and topped up first-fit-decreasing;
// a final pass re-types nodes to the cheapest type that holds their pods, drains the least
// efficient nodes into the others and merges pairs onto one cheaper node. Each pool's packing
// is then compared with one built from the configuration LP (see repackFromLP) and the
// cheaper kept. The result is deterministic for a given input and seed.
func (s *Solver) Simulate(in SimulationInput) (*Simulation, error) {
	region := strings.ToLower(in.Region)
	if region == "" || !s.HasRegion(region) {
		return nil, fmt.Errorf("region %q is not in the SKU catalog", in.Region)
	}
	for i, p := range in.Pools {
		if p.Pool == nil || p.Pool.NodePool == nil {
			return nil, fmt.Errorf("pool %d is nil", i)
		}
	}
	for _, w := range in.Workloads {
		if w.Count < 0 {
			return nil, fmt.Errorf("workload %q has a negative count", w.Name)
		}
	}
	pb := s.compile(region, in)
	best, bestCost := 0, math.Inf(1)
	n := variants(pb)
	for v := 0; v < n; v++ {
		pb.run(v)
		if c := pb.cost(); c < bestCost-1e-9 {
			best, bestCost = v, c
		}
	}
	if best != n-1 {
		pb.run(best)
	}
	pb.repackFromLP()
	return pb.report(), nil
}
