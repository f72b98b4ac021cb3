package review

import (
	"context"
	"fmt"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// CheckLimits reports dynamic NodePools without spec.limits: nothing then stops Karpenter
// from adding nodes while pods are pending. Static pools (spec.replicas) are bounded by their
// replica count instead; limits unknown until apply count as set. KRP104 is also the solver's
// code for this finding (it adds whether the limits fit a node): once the solver's Check runs
// in the review, it replaces this one.
func CheckLimits(_ context.Context, c *Cluster) []Finding {
	var out []Finding
	for _, p := range c.NodePools {
		if p.Get("spec", "replicas") != nil {
			continue
		}
		switch l := p.Get("spec", "limits").(type) {
		case map[string]any:
			if len(l) > 0 {
				continue
			}
		case nil:
		default:
			continue // unknown until apply, or a shape the schema check reports
		}
		out = append(out, p.Finding(findings.NoLimits, "spec.limits", fmt.Sprintf("NodePool %s has no limits, so it can grow without bound", p.Name),
			"Set spec.limits (limits in Terraform), e.g. cpu: \"200\" and memory: 800Gi, to the most this pool should ever hold."))
	}
	return out
}
