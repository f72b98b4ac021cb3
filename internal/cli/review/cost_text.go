package review

import (
	"fmt"
	"io"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
)

// writeCostsText adds the predicted costs to the text report.
func writeCostsText(w io.Writer, costs []ClusterCost) error {
	var b strings.Builder
	for _, c := range costs {
		fmt.Fprintf(&b, "\nPredicted cost of cluster %s (%s): $%.4f/h", clusterLabel(c.Cluster), c.Method, c.HourlyCost)
		if c.BaselineHourlyCost != nil {
			fmt.Fprintf(&b, ", baseline $%.4f/h, change %+.4f/h (%+.0f/month)", *c.BaselineHourlyCost, c.HourlyCost-*c.BaselineHourlyCost,
				(c.HourlyCost-*c.BaselineHourlyCost)*analysis.HoursPerMonth)
		}
		if c.OptimalHourlyCost > 0 {
			fmt.Fprintf(&b, "; optimal packing $%.4f/h", c.OptimalHourlyCost)
		}
		if c.LowerBound > 0 {
			fmt.Fprintf(&b, "; lower bound $%.4f/h", c.LowerBound)
		}
		if c.Unschedulable > 0 {
			fmt.Fprintf(&b, "; %d pods unschedulable", c.Unschedulable)
		}
		b.WriteString("\n")
		for _, p := range c.Pools {
			fmt.Fprintf(&b, "  %-24s %9s  $%.4f/h", p.Pool, plural(p.Nodes, "node"), p.HourlyCost)
			if p.Delta != nil {
				fmt.Fprintf(&b, "  (baseline %s $%.4f/h, %+.4f)", plural(*p.BaselineNodes, "node"), *p.BaselineHourlyCost, *p.Delta)
			}
			b.WriteString("\n")
		}
		for _, n := range c.Notes {
			fmt.Fprintf(&b, "  note: %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
