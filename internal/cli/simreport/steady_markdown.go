package simreport

import (
	"fmt"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// WriteMarkdownDisruptions lists, per run to the steady state, the disruptions on the way
// with their time on the simulated clock, and the totals: a reviewer sees what the change
// makes Karpenter replace or remove, not only where it ends. cluster is the cluster's label.
func WriteMarkdownDisruptions(b *strings.Builder, cluster string, st *simulation.Settled, cur string) {
	if st == nil {
		return
	}
	for _, run := range []struct {
		name string
		v    *simulation.SteadyState
	}{{"to the steady state", st.Before}, {"after the change", st.After}} {
		if run.v == nil || len(run.v.Disruptions) == 0 {
			continue
		}
		fmt.Fprintf(b, "\n**Disruptions %s** (%s; simulated clock): %s; %s evicted\n", run.name, MD(cluster), MD(TotalsText(run.v.Totals)), PluralWord(run.v.PodsEvicted, "pod", "pods"))
		for _, d := range run.v.Disruptions {
			fmt.Fprintf(b, "\n- +%s %s (%s): %s removed, %s launched, %s evicted%s", d.At, d.Reason, OrDash(d.Method), MD(Refs(d.Removed)), MD(Refs(d.Replacements)),
				PluralWord(d.PodsEvicted, "pod", "pods"), MD(SavingsText(cur, d.Savings)))
		}
		b.WriteString("\n")
	}
}

// MD makes text safe in a table cell: pipes and newlines would break the table, and HTML or
// backticks from the input would render.
func MD(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ", "<", "&lt;", ">", "&gt;", "`", "'").Replace(s)
}
