package simulate

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simreport"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// WriteText renders the report for a person: per cluster and mode a table per pool, the
// cost, the lower bound and what could not be scheduled; then the findings.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	for _, c := range r.Clusters {
		fmt.Fprintf(&b, "Cluster %s, region %s: %d workloads, %d pools\n", label(c.Name), c.Region, len(c.Workloads), len(c.Result.Pools))
		cur := c.Result.Currency()
		if len(c.Workloads) > 0 {
			tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "\n  WORKLOAD\tNAMESPACE\tPODS\tFROM\tREQUESTS PER POD")
			for _, w := range c.Workloads {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", w.Object, w.Namespace, podsOf(w), w.ReplicasFrom, requestsText(w.Requests))
			}
			_ = tw.Flush()
		}
		for _, m := range []struct {
			name string
			sim  *simmodel.Simulation
		}{{simulation.Karpenter, c.Result.Karpenter}, {simulation.Optimal, c.Result.Optimal}} {
			if m.sim == nil {
				continue
			}
			fmt.Fprintf(&b, "\n  %s: %s, %s (%s)%s\n", modeTitle(m.name), simreport.NodeCount(len(m.sim.Nodes)), money.Hourly(cur, m.sim.HourlyCost),
				money.Monthly(cur, m.sim.HourlyCost*analysis.HoursPerMonth), estimated(m.sim.PriceEstimated))
			for _, t := range []string{tieText(m.sim), fromKarpenterText(m.sim)} {
				if t != "" {
					fmt.Fprintf(&b, "  %s\n", t)
				}
			}
			simreport.WriteTables(&b, m.sim, c.Result.Pools, cur, "")
			writePending(&b, "unschedulable", m.sim.Unschedulable)
			if m.name == simulation.Karpenter {
				writeProvisioned(&b, c.Result.Provisioned, c.Result.Pools, cur)
				simreport.WriteSettled(&b, c.Result.Settled, c.Result.Pools, cur)
			}
		}
		if lb := c.Result.LowerBound(); lb > 0 {
			fmt.Fprintf(&b, "\n  lower bound: %s (no packing of these pods on these pools costs less)\n", money.Hourly(cur, lb))
		}
		if a := c.Advice; a != nil {
			fmt.Fprintf(&b, "\n  advice: %s: Karpenter's cost %s %s instead of %s, saving %s (%.1f %%; list prices)\n", a.Edit.Describe(), a.StateText(), money.Hourly(cur, a.HourlyCost), money.Hourly(cur, a.KarpenterCost), money.Hourly(cur, a.Saving), a.SavingPercent)
			verb := ""
			if a.Edit.Remove {
				verb = "remove "
			}
			fmt.Fprintf(&b, "    %sYAML: %s\n    %sHCL:  %s\n", verb, a.Edit.YAML(), verb, a.Edit.HCL())
		}
		if lines := driftLines(c.Drift); lines != nil {
			fmt.Fprintf(&b, "\n  %s\n", strings.Join(lines, "\n  "))
			for _, a := range c.Drift.Result.Assumptions {
				fmt.Fprintf(&b, "  assumed (drift): %s\n", a)
			}
		}
		for _, a := range c.Result.Assumptions {
			fmt.Fprintf(&b, "  assumed: %s\n", a)
		}
		for _, s := range c.Result.Skipped {
			fmt.Fprintf(&b, "  not simulated: %s\n", s)
		}
		b.WriteString("\n")
	}
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s: %s %s: %s\n", place(f.File, f.Line), f.Severity(), f.Code, f.Message)
		if f.Fix != "" {
			fmt.Fprintf(&b, "    fix: %s\n", f.Fix)
		}
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "%s: skipped: %s\n", place(s.File, s.Line), s.Reason)
	}
	b.WriteString(closingLine(r))
	_, err := io.WriteString(w, b.String())
	return err
}

// writePending lists pending pods by workload and reason.
func writePending(b *strings.Builder, title string, pending []simmodel.Unschedulable) {
	for _, g := range pendingGroups(pending) {
		fmt.Fprintf(b, "\n  %s: %s: %s\n", title, g.Subject(), g.Reason)
		if l := g.List(); l != "" {
			fmt.Fprintf(b, "    %s\n", l)
		}
	}
}

// showRounds is whether the rounds say more than the first round: a later round placed pods,
// or pods are still pending after the last.
func showRounds(p *simulation.Provisioning) bool {
	return p != nil && (len(p.Rounds) > 1 || len(p.Unschedulable) > 0)
}

// writeProvisioned is Karpenter's provisioning rounds: one line per round, then the nodes
// after the last one by pool and the pods still pending.
func writeProvisioned(b *strings.Builder, p *simulation.Provisioning, pools []string, cur string) {
	if !showRounds(p) {
		return
	}
	fmt.Fprintf(b, "\n  Karpenter %s: %s, %s (%s)\n", simulation.ProvisionedLabel(p), simreport.NodeCount(len(p.Nodes)), money.Hourly(cur, p.HourlyCost),
		money.Monthly(cur, p.HourlyCost*analysis.HoursPerMonth))
	for _, r := range p.Rounds {
		fmt.Fprintf(b, "    round %d: %s launched, %s, %d pods placed (%d on nodes of earlier rounds), %d pending\n", r.Round, simreport.NodeCount(len(r.Nodes)),
			money.Hourly(cur, r.HourlyCost), r.Placed, r.OnExistingNodes, r.Pending)
	}
	simreport.WriteTables(b, &simmodel.Simulation{Nodes: p.Nodes, HourlyCost: p.HourlyCost}, pools, cur, " after the last round")
	writePending(b, "pending after the last round", p.Unschedulable)
}

// closingLine says what was read, and when no NodePool was, what the command reads: a run on
// the wrong paths (a Terraform configuration's directory, say) must not look like a clean one.
func closingLine(r *Report) string {
	pools, workloads, pods := r.counts()
	line := fmt.Sprintf("simulated %s: %s, %s (%s) from %s\n", simreport.PluralWord(len(r.Clusters), "cluster", "clusters"),
		simreport.PluralWord(pools, "NodePool", "NodePools"), simreport.PluralWord(workloads, "workload", "workloads"), simreport.PluralWord(pods, "pod", "pods"), simreport.PluralWord(r.Files, "file", "files"))
	if pools == 0 {
		line += noPoolsHint + "\n"
	}
	return line
}

// counts are the NodePools, workloads and pods read, over the clusters.
func (r *Report) counts() (pools, workloads, pods int) {
	for _, c := range r.Clusters {
		pools += len(c.Result.Pools)
		workloads += len(c.Workloads)
		for _, w := range c.Workloads {
			pods += w.Replicas
		}
	}
	return pools, workloads, pods
}

// noPoolsHint is said when the inputs hold no NodePool.
const noPoolsHint = "nothing to simulate: no NodePool in the inputs (read: YAML and JSON manifests, Kustomize overlays, Helm charts and " +
	"`terraform show -json` plans; not Terraform .tf files)"

func modeTitle(mode string) string {
	if mode == simulation.Karpenter {
		return "Karpenter would launch in its first round"
	}
	return "Optimal packing"
}

// fromKarpenterText says when the optimum shown is Karpenter's own packing; "" otherwise.
func fromKarpenterText(sim *simmodel.Simulation) string {
	if !sim.FromKarpenter {
		return ""
	}
	return "the solver found no packing of these pods cheaper than Karpenter's own, which is shown (the lower bound is the solver's)"
}

func estimated(e bool) string {
	if e {
		return " (some prices estimated)"
	}
	return ""
}

func place(file string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

func podsOf(w WorkloadSummary) string {
	if strings.HasPrefix(w.Object, "DaemonSet/") {
		return "per node"
	}
	return fmt.Sprint(w.Replicas)
}

// requestsText lists cpu and memory first, then the other resources by name.
func requestsText(r map[string]string) string {
	var parts []string
	for _, k := range []string{"cpu", "memory"} {
		if v, ok := r[k]; ok {
			parts = append(parts, k+" "+v)
		}
	}
	var rest []string
	for k, v := range r {
		if k != "cpu" && k != "memory" {
			rest = append(rest, k+" "+v)
		}
	}
	sort.Strings(rest)
	if parts = append(parts, rest...); len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
