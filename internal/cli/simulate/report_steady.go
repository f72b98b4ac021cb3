package simulate

import (
	"fmt"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// writeSettled is Karpenter's steady state: its nodes and cost, each disruption on the way
// with its time on the simulated clock, the totals, and the nodes left drifted or
// underutilized with why they stay.
func writeSettled(b *strings.Builder, s *simulation.Settled, pools []string, cur string) {
	if s == nil {
		return
	}
	writeSteady(b, "", s.Before, pools, cur)
	writeSteady(b, " after the change", s.After, pools, cur)
}

func writeSteady(b *strings.Builder, suffix string, v *simulation.SteadyState, pools []string, cur string) {
	if v == nil {
		return
	}
	fmt.Fprintf(b, "\n  %s%s: %s, %s (%s)\n", simulation.SteadyLabel(v), suffix, nodeCount(len(v.Nodes)), money.Hourly(cur, v.HourlyCost),
		money.Monthly(cur, v.HourlyCost*analysis.HoursPerMonth))
	for _, d := range v.Disruptions {
		fmt.Fprintf(b, "    +%s %s (%s): %s removed, %s launched, %s evicted%s\n", d.At, d.Reason, orDash(d.Method), refs(d.Removed), refs(d.Replacements),
			pluralWord(d.PodsEvicted, "pod", "pods"), savingsText(cur, d.Savings))
	}
	if len(v.Disruptions) > 0 {
		fmt.Fprintf(b, "    totals: %s; %s evicted\n", totalsText(v.Totals), pluralWord(v.PodsEvicted, "pod", "pods"))
	}
	writeTables(b, &simmodel.Simulation{Nodes: v.Nodes, HourlyCost: v.HourlyCost}, pools, cur, " at the steady state")
	for _, x := range v.Blocked {
		fmt.Fprintf(b, "    stays: %s (%s %s): %s: %s\n", x.Node.Name, x.Node.Pool, x.Node.InstanceType, x.Reason, x.Detail)
	}
	if v.Pending > 0 {
		fmt.Fprintf(b, "    %s pending at the end\n", pluralWord(v.Pending, "pod", "pods"))
	}
}

func refs(rs []simulation.NodeRef) string {
	if len(rs) == 0 {
		return "none"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.InstanceType + " " + r.CapacityType
	}
	return strings.Join(parts, ", ")
}

func totalsText(t map[string]int) string {
	var parts []string
	for _, r := range []string{"Empty", "Drifted", "Underutilized", "Expired"} {
		if t[r] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", r, t[r]))
		}
	}
	return strings.Join(parts, ", ")
}

func savingsText(cur string, v float64) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprintf(", Karpenter's estimated saving %s (list prices)", money.Hourly(cur, v))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
