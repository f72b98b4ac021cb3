package report

import (
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/fleet"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
)

// Report is the outcome of a review.
type Report struct {
	// Config is the config file used, "" when none.
	Config   string               `json:"config,omitempty"`
	Files    int                  `json:"files"`
	Clusters []ClusterSummary     `json:"clusters"`
	Pools    []checks.PoolSummary `json:"pools"`
	Findings []source.Finding     `json:"findings"`
	Skipped  []assemble.Skipped   `json:"skipped,omitempty"`
	// Suppressed counts the findings that suppressions dropped; SuppressedFindings lists them
	// (code, object and place), so that a reader sees what a suppression hides.
	Suppressed         int              `json:"suppressed"`
	SuppressedFindings []source.Finding `json:"suppressedFindings,omitempty"`
	// Costs are the predicted costs per cluster (review --workloads).
	Costs []ClusterCost `json:"costs,omitempty"`
	// Fleet sets the clusters side by side when there are two or more (fleet/fleet.go).
	Fleet *fleet.Fleet `json:"fleet,omitempty"`

	// Objects counts the Karpenter objects reviewed (pools, node classes, overlays).
	Objects int `json:"-"`
}

// ClusterSummary says what a cluster holds.
type ClusterSummary struct {
	Name        string `json:"name"`
	Region      string `json:"region,omitempty"`
	NodePools   int    `json:"nodePools"`
	NodeClasses int    `json:"nodeClasses"`
	// EC2NodeClasses counts the EKS node classes (of NodeClasses).
	EC2NodeClasses int `json:"ec2NodeClasses,omitempty"`
}

// Count returns the number of findings of a severity.
func (r *Report) Count(s findings.Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity() == s {
			n++
		}
	}
	return n
}

// Empty reports whether the review had nothing to review: no Karpenter object and no finding
// (an input that does not parse is a finding), as on a directory of .tf files.
func (r *Report) Empty() bool {
	return r.Objects == 0 && len(r.Findings) == 0 && r.Suppressed == 0
}

// Fails reports whether a finding reaches the threshold.
func (r *Report) Fails(threshold findings.Severity) bool {
	return slices.ContainsFunc(r.Findings, func(f source.Finding) bool { return f.Severity() >= threshold })
}

// CountFleet fills in what depends on the final findings and costs.
func (r *Report) CountFleet() {
	if r.Fleet == nil {
		return
	}
	r.Fleet.Totals = fleet.FleetTotals{CostAtLimits: money.Totals{}}
	for i := range r.Fleet.Clusters {
		fc := &r.Fleet.Clusters[i]
		fc.Findings = fleet.FleetFindings{}
		for _, f := range r.Findings {
			if !slices.Contains(strings.Split(f.Cluster, ", "), fc.Name) {
				continue
			}
			switch f.Severity() {
			case findings.Error:
				fc.Findings.Errors++
			case findings.Warning:
				fc.Findings.Warnings++
			default:
				fc.Findings.Notes++
			}
		}
		fc.Predicted = nil
		for _, cc := range r.Costs {
			if cc.Cluster != fc.Name {
				continue
			}
			p := &fleet.FleetPredicted{Method: cc.Method, HourlyCost: cc.HourlyCost, OptimalHourlyCost: cc.OptimalHourlyCost,
				MonthlyCost: fleet.Monthly(cc.HourlyCost), OptimalMonthlyCost: fleet.Monthly(cc.OptimalHourlyCost), Unschedulable: cc.Unschedulable, Currency: cc.Currency}
			if cc.Method == "" && len(cc.Notes) > 0 {
				p.Note = cc.Notes[0]
			}
			fc.Predicted = p
		}
		r.Fleet.Totals.Add(fc)
	}
}
