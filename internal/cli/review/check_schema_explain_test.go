package review

import (
	"strings"
	"testing"
)

// Issue 31 item 7: a value failing a duration or quantity pattern is explained in words with
// the nearest valid value, in the message and in the fix, not with the CRD's regular
// expression.
func TestSchemaRejectionSuggestsTheNearestValue(t *testing.T) {
	const pool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: general
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
  limits:
    cpu: 200 cores
  disruption:
    consolidateAfter: 5 min
`
	out := runJSON(t, pool, ExitFindings, "--region", "westeurope", "-")
	want := map[string]string{"spec.limits.cpu": `"200"`, "spec.disruption.consolidateAfter": `"5m"`}
	for _, f := range out.Findings {
		if f.Code != "KRP001" {
			continue
		}
		nearest, ok := want[f.Field]
		if !ok {
			t.Errorf("unexpected rejection %s: %s", f.Field, f.Message)
			continue
		}
		delete(want, f.Field)
		if strings.Contains(f.Message, "should match") || !strings.Contains(f.Message, "did you mean "+nearest) {
			t.Errorf("%s: message %q quotes the pattern or lacks the suggestion %s", f.Field, f.Message, nearest)
		}
		if f.Fix != "Set "+f.Field+" to "+nearest+"." {
			t.Errorf("%s: fix %q", f.Field, f.Fix)
		}
	}
	for field := range want {
		t.Errorf("no KRP001 on %s: %v", field, out.brief())
	}
}
