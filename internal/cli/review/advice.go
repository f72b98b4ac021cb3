package review

import (
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// AdviceFinding is the advice as a KRP118 note on the NodePool it edits (its requirements'
// file:line), with the requirement to add as the fix.
func AdviceFinding(c *Cluster, a *simulation.Advice) Finding {
	fix := a.Edit.Fix()
	for _, p := range c.NodePools {
		if p.Name == a.Edit.Pool {
			f := p.Finding(findings.KarpenterDesignCost, "spec.template.spec.requirements", a.Message(), fix)
			f.Cluster = c.Name
			return f
		}
	}
	return Finding{Finding: findings.New(findings.KarpenterDesignCost, "", a.Message(), fix).On(analysis.PoolObject(a.Edit.Pool)), Cluster: c.Name}
}
