package checks

import (
	"context"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// CheckEqualWeights reports groups of dynamic NodePools with the same weight that compete for
// the same pods (KRP202): the one implementation is solver.EqualWeightFindings, over the pools
// as Karpenter reads them (solver.PoolFromObject), so the review and the provider judge weights
// alike. Pools whose weight, requirements, labels or taints are unknown until apply, or that
// Karpenter could not read (KRP001 reports why), are left out.
func CheckEqualWeights(_ context.Context, c *assemble.Cluster) []source.Finding {
	var pools []*analysis.Pool
	byObject := map[string]*source.Object{}
	for _, o := range c.NodePools {
		if !weightsKnown(o) {
			continue
		}
		p, err := analysis.PoolFromObject(weightObject(o))
		if err != nil {
			continue
		}
		if _, dup := byObject[o.Label()]; !dup {
			byObject[o.Label()] = o // a name twice is one object (KRP008 reports the duplicate)
		}
		pools = append(pools, p)
	}
	var out []source.Finding
	for _, f := range analysis.EqualWeightFindings(pools) {
		o := byObject[f.Object]
		if o == nil {
			continue
		}
		rf := o.Located(f)
		for _, r := range f.Related {
			if ro := byObject[r.Object]; ro != nil {
				rf.Related = append(rf.Related, ro.At(r.Path))
			}
		}
		out = append(out, rf)
	}
	return out
}

// weightFields are what decides which pods a pool competes for, and its name.
var weightFields = [][]string{
	{"metadata", "name"}, {"spec", "replicas"}, {"spec", "weight"},
	{"spec", "template", "metadata", "labels"}, {"spec", "template", "spec", "requirements"}, {"spec", "template", "spec", "taints"},
}

// weightObject is the pool with only weightFields: a field the CRD rejects elsewhere (KRP001
// says which) does not keep a pool out of the comparison, as it does not keep it from
// competing once fixed.
func weightObject(o *source.Object) map[string]any {
	out := map[string]any{}
	for _, f := range weightFields {
		v := o.Get(f...)
		if v == nil {
			continue
		}
		// Shared, not copied: the conversion only reads them.
		m := out
		for _, k := range f[:len(f)-1] {
			next, _ := m[k].(map[string]any)
			if next == nil {
				next = map[string]any{}
				m[k] = next
			}
			m = next
		}
		m[f[len(f)-1]] = v
	}
	return out
}

// weightsKnown: the fields that decide which pods a pool competes for are known at plan time.
func weightsKnown(o *source.Object) bool {
	for _, f := range weightFields {
		if hasUnknown(o.Get(f...)) {
			return false
		}
	}
	return true
}

func hasUnknown(v any) bool {
	switch x := v.(type) {
	case crdtree.Unknown:
		return true
	case map[string]any:
		for _, e := range x {
			if hasUnknown(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasUnknown(e) {
				return true
			}
		}
	}
	return false
}
