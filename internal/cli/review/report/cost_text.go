package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simreport"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
)

// WriteCostsText adds the predicted costs to the text report.
func WriteCostsText(w io.Writer, costs []ClusterCost) error {
	var b strings.Builder
	for _, c := range costs {
		cur := c.Currency
		fmt.Fprintf(&b, "\nPredicted cost of cluster %s (%s): %s", assemble.ClusterLabel(c.Cluster), c.Method, money.Hourly(cur, c.HourlyCost))
		if c.BaselineHourlyCost != nil {
			fmt.Fprintf(&b, ", baseline %s, change %[2]s %+.4[3]f/h (%[2]s %+.0[4]f/month)", money.Hourly(cur, *c.BaselineHourlyCost), money.Code(cur), c.HourlyCost-*c.BaselineHourlyCost,
				(c.HourlyCost-*c.BaselineHourlyCost)*analysis.HoursPerMonth)
		}
		if c.OptimalHourlyCost > 0 {
			fmt.Fprintf(&b, "; optimal packing %s", money.Hourly(cur, c.OptimalHourlyCost))
		}
		if c.LowerBound > 0 {
			fmt.Fprintf(&b, "; lower bound %s", money.Hourly(cur, c.LowerBound))
		}
		if c.Unschedulable > 0 {
			fmt.Fprintf(&b, "; %d pods unschedulable", c.Unschedulable)
		}
		b.WriteString("\n")
		if p := c.Provisioned; p != nil && (len(p.Rounds) > 1 || p.Unschedulable > 0) {
			fmt.Fprintf(&b, "  the cost above is Karpenter's first round; %s: %s, %s, %d pods pending\n", p.Label, clitool.Plural(p.Nodes, "node"), money.Hourly(cur, p.HourlyCost), p.Unschedulable)
		}
		pools := make([]string, 0, len(c.Pools))
		for _, p := range c.Pools {
			pools = append(pools, p.Pool)
		}
		for _, p := range c.Pools {
			fmt.Fprintf(&b, "  %-24s %9s  %s", p.Pool, clitool.Plural(p.Nodes, "node"), money.Hourly(cur, p.HourlyCost))
			if p.Delta != nil {
				fmt.Fprintf(&b, "  (baseline %s %s, %+.4f)", clitool.Plural(*p.BaselineNodes, "node"), money.Hourly(cur, *p.BaselineHourlyCost), *p.Delta)
			}
			b.WriteString("\n")
		}
		// The pools above are the first round's; the steady state follows with its own tables.
		simreport.WriteSettled(&b, c.Settled, pools, cur)
		for _, n := range c.Notes {
			fmt.Fprintf(&b, "  note: %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
