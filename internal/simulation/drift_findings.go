package simulation

import (
	"fmt"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// budgetsPath is the field the pace of drift is set by.
const budgetsPath = "spec.disruption.budgets"

// DriftFindings are the warnings of a change's drift per pool: KRP420 when more than half of
// a pool's nodes drift and the budgets let them all go at once, KRP421 when drifted nodes can
// never be replaced (no budget window allows a Drifted disruption, or their drain is blocked
// with nothing to end it). Each is on the NodePool.
func DriftFindings(pools []PoolDrift) []findings.Finding {
	var out []findings.Finding
	for _, pd := range pools {
		object := "NodePool/" + pd.NodePool
		if pd.AllAtOnce() {
			out = append(out, findings.New(findings.DriftAllAtOnce, budgetsPath,
				fmt.Sprintf("the change drifts %d of the pool's %d nodes, and its budgets allow %d Drifted disruptions at once now: Karpenter may replace them all together", pd.Drifted, pd.Nodes, pd.NowAtOnce),
				`Add a budget for Drifted that allows a few nodes at a time, e.g. { nodes = "10%", reasons = ["Drifted"] }.`).On(object))
		}
		if pd.Drifted > 0 && pd.AtOnce == 0 {
			out = append(out, findings.New(findings.DriftNeverReplaced, budgetsPath,
				fmt.Sprintf("the change drifts %d of the pool's %d nodes, but no budget window in the next 31 days allows a Drifted disruption: they keep the old configuration", pd.Drifted, pd.Nodes),
				"Allow Drifted disruptions in a budget window.").On(object))
		}
		var forGood []string
		for _, b := range pd.Blocked {
			if b.ForGood {
				forGood = append(forGood, fmt.Sprintf("%s (%s)", b.NodeClaim, b.Why))
			}
		}
		if len(forGood) > 0 {
			out = append(out, findings.New(findings.DriftNeverReplaced, "spec.template.spec.terminationGracePeriod",
				fmt.Sprintf("%d drifted nodes can never be drained, and no terminationGracePeriod bounds their drain: %s", len(forGood), strings.Join(firstOf(forGood, 5), "; ")),
				"Set terminationGracePeriod on the pool, or let the PodDisruptionBudget allow an eviction.").On(object))
		}
	}
	return out
}

// firstOf is the first n items, with how many were left out.
func firstOf(items []string, n int) []string {
	if len(items) <= n {
		return items
	}
	return append(items[:n:n], fmt.Sprintf("and %d more", len(items)-n))
}
