package report

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/fleet"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
)

// writeFleet adds the fleet table to the text report: one row per cluster, then what each
// group compared.
func writeFleet(b *strings.Builder, r *Report, s styler) {
	fl := r.Fleet
	if fl == nil {
		return
	}
	b.WriteString(s.paint(ansiBold, "Fleet") + "\n")
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	predicted := slices.ContainsFunc(fl.Clusters, func(c fleet.FleetCluster) bool { return c.Predicted != nil })
	head := "  cluster\tgroup\tregion\tpools\tcpu limit\tmemory limit\twithout limits\tat limits/month"
	if predicted {
		head += "\tKarpenter/month\toptimum/month"
	}
	fmt.Fprintln(tw, head+"\terrors\twarnings\tnotes")
	var sources []string
	for _, c := range fl.Clusters {
		row := []string{assemble.ClusterLabel(c.Name), dash(c.Group), dash(c.Region), fmt.Sprint(c.NodePools),
			limitCell(c.Limits.CPU), limitCell(c.Limits.Memory), dash(strings.Join(c.Limits.PoolsWithoutLimits, ", ")), costAtLimitsCell(c)}
		if predicted {
			row = append(row, predictedCells(c.Predicted)...)
		}
		row = append(row, fmt.Sprint(c.Findings.Errors), fmt.Sprint(c.Findings.Warnings), fmt.Sprint(c.Findings.Notes))
		for i := range row {
			row[i] = EscapeText(row[i])
		}
		row[0] = EscapeLead(assemble.ClusterLabel(c.Name)) // it starts the line: no workflow command
		fmt.Fprintln(tw, "  "+strings.Join(row, "\t"))
		for _, src := range c.CostAtLimits.PriceSources {
			if !slices.Contains(sources, src) {
				sources = append(sources, src)
			}
		}
	}
	// The totals: one sum per currency, never one number across currencies.
	row := []string{"total", "", "", "", "", "", "", totalCell(fl.Totals.CostAtLimits)}
	if predicted {
		row = append(row, totalCell(fl.Totals.Predicted), totalCell(fl.Totals.Optimal))
	}
	fmt.Fprintln(tw, "  "+strings.Join(row, "\t"))
	_ = tw.Flush()
	note := "  at limits: the cheapest cost of each pool filled to its limits (not a prediction)"
	if len(sources) > 0 {
		note += "; prices: " + strings.Join(sources, ", ")
	}
	b.WriteString(s.paint(ansiDim, EscapeText(note)) + "\n")
	if predicted {
		b.WriteString(s.paint(ansiDim, "  Karpenter: the nodes Karpenter's emulated scheduling launches for the workloads; optimum: the cheapest packing of the same pods") + "\n")
	}
	for _, g := range fl.Groups {
		line := fmt.Sprintf("  group %s: ", g.Name)
		switch {
		case len(g.Compared) == 0:
			line += "not compared (fewer than two of " + strings.Join(g.Clusters, ", ") + " have reviewed inputs)"
		default:
			line += "compared " + strings.Join(g.Compared, ", ")
			if len(g.Compared) < len(g.Clusters) {
				var rest []string
				for _, n := range g.Clusters {
					if !slices.Contains(g.Compared, n) {
						rest = append(rest, n)
					}
				}
				line += " (no reviewed inputs: " + strings.Join(rest, ", ") + ")"
			}
			if g.RegionalSkipped {
				line += "; regions differ, so zone and region requirements are not compared"
			}
		}
		b.WriteString(s.paint(ansiDim, EscapeText(line)) + "\n")
	}
	b.WriteString("\n")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func limitCell(l *fleet.FleetLimit) string {
	if l == nil {
		return "-"
	}
	return fmt.Sprintf("%s (%s)", l.Total, clitool.PluralWord(l.Pools, "pool", "pools"))
}

func costAtLimitsCell(c fleet.FleetCluster) string {
	ca := c.CostAtLimits
	if ca.Pools == 0 {
		return "-"
	}
	v := money.Format(ca.Currency, ca.MonthlyCost, 0)
	if ca.ByCurrency != nil {
		v = ca.ByCurrency.Format(0)
	}
	if n := len(ca.Uncosted); n > 0 {
		v += fmt.Sprintf(" (%d of %d pools)", ca.Pools, ca.Pools+n)
	}
	return v
}

// totalCell is a fleet total: "USD 3360", or "CNY 980 + USD 2380" across currencies.
func totalCell(t money.Totals) string {
	if len(t) == 0 {
		return "-"
	}
	return t.Format(0)
}

func predictedCells(p *fleet.FleetPredicted) []string {
	switch {
	case p == nil:
		return []string{"-", "-"}
	case p.Method == "":
		return []string{"no cost", "-"}
	}
	k := money.Format(p.Currency, p.MonthlyCost, 0)
	if p.Unschedulable > 0 {
		k += fmt.Sprintf(" (%d pods unschedulable)", p.Unschedulable)
	}
	return []string{k, money.Format(p.Currency, p.OptimalMonthlyCost, 0)}
}
