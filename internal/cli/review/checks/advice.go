package checks

import (
	"fmt"
	"strconv"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// AdviceFinding is the advice as a KRP118 note on the NodePool it edits (its requirements'
// file:line), with the requirement to add as the fix.
func AdviceFinding(c *assemble.Cluster, a *simulation.Advice) source.Finding {
	fix := a.Edit.Fix()
	for _, p := range c.NodePools {
		if p.Name == a.Edit.Pool {
			f := p.Finding(findings.KarpenterDesignCost, "spec.template.spec.requirements", a.Message(), fix)
			f.Cluster = c.Name
			return f
		}
	}
	return source.Finding{Finding: findings.New(findings.KarpenterDesignCost, "", a.Message(), fix).On(analysis.PoolObject(a.Edit.Pool)), Cluster: c.Name}
}

// ReconcileAdvice makes KRP119 and KRP118 on the same pool agree when both ask for a cap on its
// vCPU: KRP119's is the largest cap that lets the limits hold three NodeClaims per round,
// KRP118's the cheapest for these workloads, so each says which one to take. fs and advice are
// changed in place.
func ReconcileAdvice(fs []source.Finding, advice *source.Finding, a *simulation.Advice) {
	req := a.Edit.Requirement
	if a.Edit.Remove || req.Operator != "Lt" || len(req.Values) != 1 {
		return
	}
	advised, err := strconv.Atoi(req.Values[0])
	if err != nil {
		return
	}
	for i := range fs {
		f := &fs[i]
		if f.Code != findings.LimitsReservation || f.Object != advice.Object || f.Cluster != advice.Cluster {
			continue
		}
		if f.SuggestedCap == nil || f.SuggestedCap.Key != req.Key {
			continue
		}
		asked := f.SuggestedCap.Below
		if advised <= asked {
			f.Fix += fmt.Sprintf("; with the workloads reviewed, KRP118 advises the tighter %s Lt %d, which keeps at least as many NodeClaims per round and costs less: take that one", req.Key, advised)
			advice.Message += fmt.Sprintf("; it also satisfies KRP119 on the pool, whose %s Lt %d is the largest cap that lets the limits hold three NodeClaims per round", req.Key, asked)
			continue
		}
		f.Fix += fmt.Sprintf("; KRP118 advises %s Lt %d for the workloads' cost, which is not enough for this: %s Lt %d serves both if the pods fit on those sizes", req.Key, advised, req.Key, asked)
		advice.Message += fmt.Sprintf("; KRP119 on the pool asks for %s Lt %d so that the limits hold three NodeClaims per round: that tighter cap serves both if the pods fit", req.Key, asked)
	}
}
