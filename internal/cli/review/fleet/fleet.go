package fleet

import (
	"context"
	"math"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
)

// Fleet is the review of several clusters side by side: one entry per cluster, in the
// report's order, and the groups of clusters meant to be identical. The JSON report writes it
// as "fleet" when the review holds two clusters or more; its field names are stable.
type Fleet struct {
	Clusters []FleetCluster `json:"clusters"`
	Groups   []FleetGroup   `json:"groups,omitempty"`
	// Totals sum the clusters' monthly costs per currency (ISO 4217 code → amount): amounts in
	// different currencies are never added.
	Totals FleetTotals `json:"totals"`
}

// FleetTotals are the fleet's monthly costs, one sum per currency.
type FleetTotals struct {
	CostAtLimits money.Totals `json:"costAtLimits"`
	// Predicted and Optimal (review --workloads) sum the clusters with a predicted cost.
	Predicted money.Totals `json:"predicted,omitempty"`
	Optimal   money.Totals `json:"optimal,omitempty"`
}

// FleetCluster is one row of the fleet table.
type FleetCluster struct {
	Name        string      `json:"name"`
	Region      string      `json:"region,omitempty"`
	Group       string      `json:"group,omitempty"`
	NodePools   int         `json:"nodePools"`
	NodeClasses int         `json:"nodeClasses"`
	Limits      FleetLimits `json:"limits"`
	// CostAtLimits is the sum of the pools' "monthly cost at the limits": the cheapest cost of
	// each pool filled to its limits (its cheapest admissible size for the binding limit, at
	// the catalog's prices: spot where the pool allows spot). What the limits let the cluster spend at the least; not a
	// prediction (Predicted is).
	CostAtLimits FleetCostAtLimits `json:"costAtLimits"`
	// Predicted is the workloads' predicted cost (review --workloads); nil without workloads.
	Predicted *FleetPredicted `json:"predicted,omitempty"`
	// Findings counts the cluster's findings (after suppressions) by severity.
	Findings FleetFindings `json:"findings"`
}

// FleetLimits totals the pools' limits on cpu and memory.
type FleetLimits struct {
	// CPU and Memory sum the limit over the pools that set one (nil when none does).
	CPU    *FleetLimit `json:"cpu,omitempty"`
	Memory *FleetLimit `json:"memory,omitempty"`
	// PoolsWithoutLimits names the pools with no spec.limits at all (static pools, whose
	// replicas bound them, are not listed): Karpenter provisions for them without bound.
	PoolsWithoutLimits []string `json:"poolsWithoutLimits"`
}

// FleetLimit is one resource's total and how many pools it counts.
type FleetLimit struct {
	Total string `json:"total"`
	Pools int    `json:"pools"`
}

// FleetCostAtLimits is a cluster's monthly cost at its pools' limits.
type FleetCostAtLimits struct {
	// MonthlyCost sums the pools in Pools (730 h a month), in Currency. When the pools price
	// in different currencies (pools of two clouds) it is 0, Currency is "mixed" and
	// ByCurrency holds one sum per currency.
	MonthlyCost float64      `json:"monthlyCost"`
	Currency    string       `json:"currency,omitempty"`
	ByCurrency  money.Totals `json:"byCurrency,omitempty"`
	Pools       int          `json:"pools"`
	// Uncosted names the pools without a cost at the limits: no limit binds (unbounded), or
	// the pool was not analysed (values known only after apply, another cloud, a pool the API
	// server rejects, or a review without the provisioning check).
	Uncosted []string `json:"uncostedPools,omitempty"`
	// PriceSources are the provenances of the prices of the pools' cheapest offerings: "list
	// YYYY-MM-DD" (the date of the price snapshot), "override…", or "estimated" (a spot price
	// estimated from the on-demand one; the pool's facts say how).
	PriceSources []string `json:"priceSources,omitempty"`
	// Scope is where the prices are from: the region, or Karpenter's fallback region's when
	// the cluster names none.
	Scope string `json:"scope,omitempty"`
}

// FleetPredicted is a cluster's predicted cost with the workloads (ClusterCost, per month).
type FleetPredicted struct {
	// Method is "karpenter": Karpenter's emulated scheduling decides the nodes.
	Method      string  `json:"method,omitempty"`
	HourlyCost  float64 `json:"hourlyCost"`
	MonthlyCost float64 `json:"monthlyCost"`
	// Currency is the ISO 4217 code of the costs.
	Currency string `json:"currency,omitempty"`
	// Optimal* are the cheapest packing of the same pods on the same pools (an optimum, not
	// what Karpenter launches).
	OptimalHourlyCost  float64 `json:"optimalHourlyCost"`
	OptimalMonthlyCost float64 `json:"optimalMonthlyCost"`
	Unschedulable      int     `json:"unschedulable"`
	// Note says why there is no cost, when there is none.
	Note string `json:"note,omitempty"`
}

// FleetFindings counts findings by severity.
type FleetFindings struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Notes    int `json:"notes"`
}

// FleetGroup is a group of the config: its clusters, and those the review compared (the
// members the reviewed paths hold inputs for).
type FleetGroup struct {
	Name     string   `json:"name"`
	Clusters []string `json:"clusters"`
	Compared []string `json:"compared"`
	// RegionalSkipped: the compared clusters are in different regions and regional requirements
	// were not compared (compareRegional unset).
	RegionalSkipped bool `json:"regionalSkipped"`
}

// FleetOf builds the fleet's per-cluster facts; the counts and predicted costs are filled in
// once the findings are final (countFleet). nil for fewer than two clusters.
func FleetOf(ctx context.Context, cfg *config.Config, clusters []*assemble.Cluster) *Fleet {
	if len(clusters) < 2 {
		return nil
	}
	fl := &Fleet{Clusters: []FleetCluster{}}
	for _, c := range clusters {
		fc := FleetCluster{Name: c.Name, Region: c.Region, NodePools: len(c.NodePools), NodeClasses: len(c.NodeClasses),
			Limits: FleetLimits{PoolsWithoutLimits: []string{}}}
		if cfg != nil {
			fc.Group = cfg.GroupOf(c.Name)
		}
		var cpu, mem resource.Quantity
		sources := map[string]bool{}
		atLimits := money.Totals{}
		for _, p := range c.NodePools {
			limits, _ := p.Get("spec", "limits").(map[string]any)
			if len(limits) == 0 && p.Get("spec", "replicas") == nil {
				fc.Limits.PoolsWithoutLimits = append(fc.Limits.PoolsWithoutLimits, p.Name)
			}
			fc.Limits.CPU = addLimit(fc.Limits.CPU, &cpu, limits["cpu"])
			fc.Limits.Memory = addLimit(fc.Limits.Memory, &mem, limits["memory"])
			a := checks.ProvisioningOf(ctx).Analysed(p)
			if a == nil || a.Summary.MonthlyCostAtLimits == nil {
				fc.CostAtLimits.Uncosted = append(fc.CostAtLimits.Uncosted, p.Name)
				continue
			}
			atLimits.Add(a.Summary.Currency, *a.Summary.MonthlyCostAtLimits)
			fc.CostAtLimits.Pools++
			fc.CostAtLimits.Scope = a.Summary.Scope
			for _, s := range priceSourcesOf(a.Summary) {
				sources[s] = true
			}
		}
		for cur, v := range atLimits {
			atLimits[cur] = math.Round(v*100) / 100
		}
		if cur, v, ok := atLimits.Single(); ok {
			fc.CostAtLimits.MonthlyCost, fc.CostAtLimits.Currency = v, cur
		} else if len(atLimits) > 1 {
			fc.CostAtLimits.Currency, fc.CostAtLimits.ByCurrency = mixedCurrency, atLimits
		}
		for s := range sources {
			fc.CostAtLimits.PriceSources = append(fc.CostAtLimits.PriceSources, s)
		}
		slices.Sort(fc.CostAtLimits.PriceSources)
		fl.Clusters = append(fl.Clusters, fc)
	}
	if cfg != nil {
		for _, g := range cfg.Groups {
			fg := FleetGroup{Name: g.Name, Clusters: g.Clusters, Compared: []string{}}
			var cs []*assemble.Cluster
			for _, c := range clusters {
				if slices.Contains(g.Clusters, c.Name) {
					fg.Compared = append(fg.Compared, c.Name)
					cs = append(cs, c)
				}
			}
			if len(cs) < 2 {
				fg.Compared = []string{}
			} else {
				fg.RegionalSkipped = !g.CompareRegional && regionsDiffer(cs)
			}
			fl.Groups = append(fl.Groups, fg)
		}
	}
	return fl
}

// addLimit adds one pool's limit to a total; a value known only after apply, or one that is
// not a quantity (KRP001 reports it), is not counted.
func addLimit(l *FleetLimit, total *resource.Quantity, v any) *FleetLimit {
	if v == nil {
		return l
	}
	if _, unknown := v.(crdtree.Unknown); unknown {
		return l
	}
	q, err := resource.ParseQuantity(checks.Show(v))
	if err != nil {
		return l
	}
	total.Add(q)
	if l == nil {
		l = &FleetLimit{}
	}
	l.Pools++
	l.Total = total.String()
	return l
}

// priceSourcesOf are the provenances of the pool's cheapest offerings' prices.
func priceSourcesOf(s analysis.Summary) []string {
	out := []string{s.PriceSource}
	for _, c := range s.CapacityTypes {
		out = append(out, c.PriceSource)
	}
	for i, src := range out {
		for _, p := range []string{"estimated", "missing"} {
			if strings.HasPrefix(src, p) {
				out[i] = p
			}
		}
	}
	return slices.DeleteFunc(out, func(s string) bool { return s == "" })
}

// Add counts a cluster's costs in the totals of their currencies.
func (t *FleetTotals) Add(fc *FleetCluster) {
	ca := fc.CostAtLimits
	switch {
	case ca.ByCurrency != nil:
		for cur, v := range ca.ByCurrency {
			t.CostAtLimits.Add(cur, v)
		}
	case ca.Pools > 0:
		t.CostAtLimits.Add(ca.Currency, ca.MonthlyCost)
	}
	if p := fc.Predicted; p != nil && p.Method != "" {
		if t.Predicted == nil {
			t.Predicted, t.Optimal = money.Totals{}, money.Totals{}
		}
		t.Predicted.Add(p.Currency, p.MonthlyCost)
		t.Optimal.Add(p.Currency, p.OptimalMonthlyCost)
	}
	for _, m := range []money.Totals{t.CostAtLimits, t.Predicted, t.Optimal} {
		for cur, v := range m {
			m[cur] = math.Round(v*100) / 100
		}
	}
}

// mixedCurrency is the currency of a sum that would add different currencies: it is not made.
const mixedCurrency = "mixed"

func Monthly(hourly float64) float64 {
	return math.Round(hourly*analysis.HoursPerMonth*100) / 100
}
