package simulation

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// nodeClassHasher is SettleInput.NodeClassHash for a change: each pool's node-class hash
// before and after, as the cloud's hash controller computes it (cloud.Drifter) on the
// defaulted bodies. A pool whose class neither tree holds, or whose cloud has no hash, hashes
// to "" on both sides and so never drifts by it.
func nodeClassHasher(s *analysis.Analyzer, pools, afterPools []simmodel.SimPool, before, after []map[string]any) func(pool string, isAfter bool) string {
	hashes := [2]map[string]string{hashesOf(s, pools, before), hashesOf(s, afterPools, after)}
	return func(pool string, isAfter bool) string {
		if isAfter {
			return hashes[1][pool]
		}
		return hashes[0][pool]
	}
}

func hashesOf(s *analysis.Analyzer, pools []simmodel.SimPool, bodies []map[string]any) map[string]string {
	classes := classesByRef(s.Clouds(), bodies)
	out := map[string]string{}
	for _, p := range pools {
		ref := p.Pool.Spec.Template.Spec.NodeClassRef
		if ref == nil {
			continue
		}
		body, ok := classes[keyOf(schema.GroupKind{Group: ref.Group, Kind: ref.Kind}, ref.Name)]
		if !ok {
			continue
		}
		c, ok := s.Clouds().ForGroup(strings.ToLower(ref.Group))
		if !ok {
			continue
		}
		if d, ok := c.(cloud.Drifter); ok {
			if h, err := d.NodeClassHash(body); err == nil {
				out[p.Pool.Name] = h.Hash
			}
		}
	}
	return out
}
