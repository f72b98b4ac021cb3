package runningnodes

import "testing"

// The pattern matches the warning however Terraform wraps it, on its attribute only.
func TestDriftWarning(t *testing.T) {
	re := DriftWarning("template.labels", "this change drifts 3 of 3 nodes of NodePool acc-impact; budgets allow 1 at a time")
	wrapped := "Error: KRP422: ...\n\n  with karpenter_nodepool.test,\n\nAttribute template.labels: this change drifts 3 of 3\nnodes of NodePool acc-impact; budgets allow 1 at a time: about 3 rounds"
	if !re.MatchString(wrapped) {
		t.Errorf("%s does not match the wrapped warning:\n%s", re, wrapped)
	}
	for _, other := range []string{
		"KRP422 Attribute template.weight: this change drifts 3 of 3 nodes of NodePool acc-impact; budgets allow 1 at a time",
		"KRP422 Attribute template.labels: this change drifts 2 of 3 nodes of NodePool acc-impact; budgets allow 1 at a time",
		"KRP421 Attribute template.labels: this change drifts 3 of 3 nodes of NodePool acc-impact; budgets allow 1 at a time",
	} {
		if re.MatchString(other) {
			t.Errorf("%s matches %q", re, other)
		}
	}
}
