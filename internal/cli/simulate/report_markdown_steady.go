package simulate

import (
	"fmt"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// writeMarkdownDisruptions lists, per run to the steady state, the disruptions on the way
// with their time on the simulated clock, and the totals: a reviewer sees what the change
// makes Karpenter replace or remove, not only where it ends.
func writeMarkdownDisruptions(b *strings.Builder, c ClusterReport) {
	st := c.Result.Settled
	if st == nil {
		return
	}
	cur := c.Result.Currency()
	for _, run := range []struct {
		name string
		v    *simulation.SteadyState
	}{{"to the steady state", st.Before}, {"after the change", st.After}} {
		if run.v == nil || len(run.v.Disruptions) == 0 {
			continue
		}
		fmt.Fprintf(b, "\n**Disruptions %s** (%s; simulated clock): %s; %s evicted\n", run.name, md(label(c.Name)), md(totalsText(run.v.Totals)), pluralWord(run.v.PodsEvicted, "pod", "pods"))
		for _, d := range run.v.Disruptions {
			fmt.Fprintf(b, "\n- +%s %s (%s): %s removed, %s launched, %s evicted%s", d.At, d.Reason, orDash(d.Method), md(refs(d.Removed)), md(refs(d.Replacements)),
				pluralWord(d.PodsEvicted, "pod", "pods"), md(savingsText(cur, d.Savings)))
		}
		b.WriteString("\n")
	}
}
