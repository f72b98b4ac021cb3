package crdtree_test

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// Field paths as the API server reports them map to the attribute the user wrote. Map values
// are reported by the OpenAPI validator as <map>.<key> and by CEL as <map>[<key>]; keys of
// labels and resource limits contain dots themselves ("nvidia.com/gpu"), so everything after
// the map is the key.
func TestAttributePathFromFieldPath(t *testing.T) {
	root := kinds.NodePool.Tree()
	cases := []struct {
		field, want string
		ok          bool
	}{
		{"spec.weight", "weight", true},
		{"spec.template.spec.requirements[0].key", "template.requirements[0].key", true},
		{"spec.template.spec.requirements", "template.requirements", true},
		{"spec.limits.cpu", `limits["cpu"]`, true},
		{"spec.limits.nvidia.com/gpu", `limits["nvidia.com/gpu"]`, true},
		{"spec.limits[nvidia.com/gpu]", `limits["nvidia.com/gpu"]`, true},
		{"spec.template.metadata.labels.karpenter.azure.com/sku-family", `template.labels["karpenter.azure.com/sku-family"]`, true},
		{"spec.template.metadata.labels", "template.labels", true},
		{"spec", "", false},
		{"<nil>", "", false},
	}
	for _, c := range cases {
		p, ok := root.AttributePath(crdtree.ParseFieldPath(c.field))
		if ok != c.ok || (ok && p.String() != c.want) {
			t.Errorf("%s: got %q (%v), want %q (%v)", c.field, p.String(), ok, c.want, c.ok)
		}
	}
}
