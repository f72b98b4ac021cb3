package tfcrd_test

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// The framework's attribute path of a field is the tree's, step for step. So diagnostics on
// the provider's resources and the review's locations name the same attribute, printed the
// same way: map keys quoted as Go quotes them, list indices in brackets.
func TestAttributePathMatchesTree(t *testing.T) {
	root := kinds.NodePool.Tree()
	for _, field := range []string{
		"spec.weight",
		"spec.template.spec.requirements[0].key",
		"spec.template.spec.requirements[12].values[3]",
		"spec.template.spec.requirements",
		"spec.limits.nvidia.com/gpu",
		"spec.limits[nvidia.com/gpu]",
		`spec.template.metadata.labels.a"b\c`,
		"spec.template.metadata.labels",
		"spec.disruption.budgets[1].nodes",
		"spec",
		"<nil>",
	} {
		segs := crdtree.ParseFieldPath(field)
		want, wantOK := root.AttributePath(segs)
		got, ok := tfcrd.AttributePath(root, segs)
		if ok != wantOK || got.String() != want.String() {
			t.Errorf("%s: framework path %q (%v), tree path %q (%v)", field, got, ok, want, wantOK)
		}
		if len(got.Steps()) != len(want) {
			t.Errorf("%s: framework path has %d steps, tree path %d", field, len(got.Steps()), len(want))
		}
	}
}
