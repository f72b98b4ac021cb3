package simreport

import (
	"fmt"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// WriteSettled is Karpenter's steady state: its nodes and cost, each disruption on the way
// with its time on the simulated clock, the totals, and the nodes left drifted or
// underutilized with why they stay.
func WriteSettled(b *strings.Builder, s *simulation.Settled, pools []string, cur string) {
	if s == nil {
		return
	}
	WriteSteady(b, "", s.Before, pools, cur)
	WriteSteady(b, " after the change", s.After, pools, cur)
}

// WriteSteady is one run to the steady state; suffix follows its label.
func WriteSteady(b *strings.Builder, suffix string, v *simulation.SteadyState, pools []string, cur string) {
	if v == nil {
		return
	}
	fmt.Fprintf(b, "\n  %s%s: %s, %s (%s)\n", simulation.SteadyLabel(v), suffix, NodeCount(len(v.Nodes)), money.Hourly(cur, v.HourlyCost),
		money.Monthly(cur, v.HourlyCost*analysis.HoursPerMonth))
	for _, d := range v.Disruptions {
		fmt.Fprintf(b, "    +%s %s (%s): %s removed, %s launched, %s evicted%s\n", d.At, d.Reason, OrDash(d.Method), Refs(d.Removed), Refs(d.Replacements),
			PluralWord(d.PodsEvicted, "pod", "pods"), SavingsText(cur, d.Savings))
	}
	if len(v.Disruptions) > 0 {
		fmt.Fprintf(b, "    totals: %s; %s evicted\n", TotalsText(v.Totals), PluralWord(v.PodsEvicted, "pod", "pods"))
	}
	WriteTables(b, &simmodel.Simulation{Nodes: v.Nodes, HourlyCost: v.HourlyCost}, pools, cur, " at the steady state")
	for _, x := range v.Blocked {
		fmt.Fprintf(b, "    stays: %s (%s %s): %s: %s\n", x.Node.Name, x.Node.Pool, x.Node.InstanceType, x.Reason, x.Detail)
	}
	if v.Pending > 0 {
		fmt.Fprintf(b, "    %s pending at the end\n", PluralWord(v.Pending, "pod", "pods"))
	}
}
