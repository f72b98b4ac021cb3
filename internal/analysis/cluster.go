package analysis

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// ClusterFindings checks the pools of one cluster together: findings about one pool that only
// the other pools of its cluster reveal, each naming its pool (Object NodePool/<name>). A spot-only pool without an
// on-demand pool that could take the same pods leaves those pods pending whenever spot
// capacity is short or evicted (Karpenter falls back between capacity types only within a pool
// or across pools whose requirements overlap).
func ClusterFindings(pools []*Pool) []findings.Finding {
	var out []findings.Finding
	for _, p := range pools {
		ct := p.Requirements.Get(karpv1.CapacityTypeLabelKey)
		if !p.Requirements.Has(karpv1.CapacityTypeLabelKey) || ct.Has(karpv1.CapacityTypeOnDemand) || !ct.Has(karpv1.CapacityTypeSpot) || p.Spec.Replicas != nil {
			continue
		}
		if hasFallback(p, pools) {
			continue
		}
		i := 0
		for j, r := range p.Spec.Template.Spec.Requirements {
			if r.Key == karpv1.CapacityTypeLabelKey {
				i = j
				break
			}
		}
		out = append(out, findings.Finding{
			Code: findings.SpotWithoutFallback, Object: PoolObject(p.Name), Path: requirementPath(i, "values"),
			Message: fmt.Sprintf("NodePool %s allows only spot capacity and no other pool with on-demand capacity can take its pods; they stay pending when spot capacity runs out or is evicted", p.Name),
			Fix:     "allow on-demand in this pool, or add a lower-weight on-demand pool with compatible requirements and taints",
		})
	}
	return out
}

// hasFallback reports whether another pool allows on-demand capacity for pods that p accepts:
// requirements that intersect apart from capacity type and p's node pool label, and no taint
// that p's pods would not already tolerate.
func hasFallback(p *Pool, pools []*Pool) bool {
	for _, q := range pools {
		if q == p || q.Spec.Replicas != nil {
			continue
		}
		if q.Requirements.Has(karpv1.CapacityTypeLabelKey) && !q.Requirements.Get(karpv1.CapacityTypeLabelKey).Has(karpv1.CapacityTypeOnDemand) {
			continue
		}
		if without(q.Requirements).Intersects(without(p.Requirements)) != nil {
			continue
		}
		if !taintsCovered(q.Spec.Template.Spec.Taints, p.Spec.Template.Spec.Taints) {
			continue
		}
		return true
	}
	return false
}

func without(r scheduling.Requirements) scheduling.Requirements {
	out := scheduling.NewRequirements()
	for _, req := range r.Values() {
		if req.Key != karpv1.CapacityTypeLabelKey && req.Key != karpv1.NodePoolLabelKey {
			out.Add(req)
		}
	}
	return out
}

// taintsCovered: every taint of the fallback pool that keeps pods off (NoSchedule, NoExecute)
// is also on the spot pool, so pods that run on the spot pool tolerate it. A PreferNoSchedule
// taint only steers the scheduler: pods that do not tolerate it still land there when nothing
// else fits, so it does not spoil a fallback. Taints of the spot pool itself do not matter:
// pods that tolerate them run on untainted nodes as well.
func taintsCovered(fallback, spot []corev1.Taint) bool {
	for _, t := range fallback {
		if t.Effect == corev1.TaintEffectPreferNoSchedule {
			continue
		}
		found := false
		for _, s := range spot {
			if s.MatchTaint(&t) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// PoolObject names a NodePool as kubectl does, as cluster findings name their pool.
func PoolObject(name string) string { return "NodePool/" + name }
