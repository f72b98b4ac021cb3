package simulate

import (
	"fmt"
	"io"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simreport"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// WriteMarkdown renders the report for a pull-request comment: a summary table of the
// clusters, then per cluster a table of the nodes per pool, and the findings.
func WriteMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	b.WriteString("### Karpenter simulation\n\n")
	if pools, _, _ := r.counts(); pools == 0 {
		fmt.Fprintf(&b, "%s\n\n", md(noPoolsHint))
	}
	b.WriteString("| Cluster | Region | Mode | Nodes | Currency | Per hour | Per month | Lower bound per hour | Unschedulable pods |\n|---|---|---|---:|---|---:|---:|---:|---:|\n")
	for _, c := range r.Clusters {
		for _, m := range modes(c.Result) {
			unsched := 0
			for _, u := range m.sim.Unschedulable {
				unsched += u.Count
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %.4f | %.0f | %.4f | %d |\n", md(label(c.Name)), md(c.Region), m.name, len(m.sim.Nodes),
				c.Result.Currency(), m.sim.HourlyCost, m.sim.HourlyCost*analysis.HoursPerMonth, c.Result.LowerBound(), unsched)
		}
	}
	for _, c := range r.Clusters {
		cur := c.Result.Currency()
		for _, m := range modes(c.Result) {
			fmt.Fprintf(&b, "\n<details><summary>%s, %s: %s, %s</summary>\n\n", md(label(c.Name)), m.name, simreport.NodeCount(len(m.sim.Nodes)), money.Hourly(cur, m.sim.HourlyCost))
			for _, t := range []string{tieText(m.sim), fromKarpenterText(m.sim)} {
				if t != "" {
					fmt.Fprintf(&b, "%s.\n\n", md(t))
				}
			}
			fmt.Fprintf(&b, "| NodePool | Instance type | Capacity | Zone | Nodes | Pods | %s/hour |\n|---|---|---|---|---:|---:|---:|\n", cur)
			for _, t := range simreport.Tables(m.sim, c.Result.Pools) {
				for _, row := range t.Rows {
					fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %d | %.4f |\n", md(t.Pool), md(row.InstanceType), row.CapacityType, md(row.Zone), row.Nodes, row.Pods, simulation.Round(row.HourlyCost))
				}
			}
			for _, g := range pendingGroups(m.sim.Unschedulable) {
				fmt.Fprintf(&b, "\n- **unschedulable**: %s: %s\n", md(g.Subject()), md(g.Reason))
				if l := g.List(); l != "" {
					fmt.Fprintf(&b, "  (%s)\n", md(l))
				}
			}
			b.WriteString("\n</details>\n")
		}
		simreport.WriteMarkdownDisruptions(&b, label(c.Name), c.Result.Settled, cur)
		if a := c.Advice; a != nil {
			fmt.Fprintf(&b, "\n**Advice** (%s): %s: Karpenter's cost %s %s instead of %s, saving %s (%.1f %%; list prices): `%s`\n", md(label(c.Name)), md(a.Edit.Describe()), a.StateText(), money.Hourly(cur, a.HourlyCost), money.Hourly(cur, a.KarpenterCost), money.Hourly(cur, a.Saving), a.SavingPercent, md(a.Edit.YAML()))
		}
		if d := c.Drift; d != nil {
			fmt.Fprintf(&b, "\n**Drift** (%s): %d of %d NodeClaims of the changed pools drift (%s); their replacement is not simulated\n", md(label(c.Name)), len(d.Result.Drifted), d.Result.Checked, md(reasons(d.Result)))
			for _, p := range d.Pools {
				fmt.Fprintf(&b, "\n- %s", md(poolDriftText(p)))
				if len(p.Blocked) > 0 {
					fmt.Fprintf(&b, " (%d blocked: %s)", len(p.Blocked), md(p.Blocked[0].Why))
				}
			}
			b.WriteString("\n")
		}
		for _, a := range c.Result.Assumptions {
			fmt.Fprintf(&b, "\n- assumed: %s", md(a))
		}
		for _, s := range c.Result.Skipped {
			fmt.Fprintf(&b, "\n- not simulated: %s", md(s))
		}
		if len(c.Result.Assumptions)+len(c.Result.Skipped) > 0 {
			b.WriteString("\n")
		}
	}
	if len(r.Findings) > 0 {
		b.WriteString("\n| Severity | Code | Where | Finding |\n|---|---|---|---|\n")
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "| %s | %s | `%s` | %s |\n", f.Severity(), f.Code, md(place(f.File, f.Line)), md(f.Message))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type modeSim struct {
	name string
	sim  *simmodel.Simulation
}

func modes(r *simulation.Result) []modeSim {
	var out []modeSim
	if r.Karpenter != nil {
		out = append(out, modeSim{simulation.Karpenter, r.Karpenter})
	}
	if p := r.Provisioned; showRounds(p) {
		out = append(out, modeSim{"karpenter " + simulation.ProvisionedLabel(p), &simmodel.Simulation{Nodes: p.Nodes, HourlyCost: p.HourlyCost, Unschedulable: p.Unschedulable}})
	}
	if st := r.Settled; st != nil && st.Before != nil {
		out = append(out, modeSim{"karpenter " + simulation.SteadyLabel(st.Before), &simmodel.Simulation{Nodes: st.Before.Nodes, HourlyCost: st.Before.HourlyCost}})
	}
	if st := r.Settled; st != nil && st.After != nil {
		out = append(out, modeSim{"karpenter " + simulation.SteadyLabel(st.After) + " after the change", &simmodel.Simulation{Nodes: st.After.Nodes, HourlyCost: st.After.HourlyCost}})
	}
	if r.Optimal != nil {
		out = append(out, modeSim{simulation.Optimal, r.Optimal})
	}
	return out
}

// md makes text safe in a table cell (simreport.MD).
var md = simreport.MD
