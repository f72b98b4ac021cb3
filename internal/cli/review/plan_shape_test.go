package review

import (
	"strings"
	"testing"
)

// A plan the review does not fully understand says so: an unknown major format version is
// not reviewed at all, and entries of this provider's types that lack what every plan has
// are named, instead of passing as reviewed.
func TestPlanNotUnderstood(t *testing.T) {
	t.Run("format version", func(t *testing.T) {
		out := runJSON(t, `{"format_version": "99.0", "resource_changes": []}`, ExitFindings, "-")
		if len(out.Findings) != 1 || out.Findings[0].Code != "KRP005" || !strings.Contains(out.Findings[0].Message, `format_version "99.0"`) {
			t.Errorf("findings %+v", out.Findings)
		}
	})
	t.Run("entries of the wrong shape", func(t *testing.T) {
		plan := `{"format_version": "1.2", "resource_changes": [
			{"address": "karpenter_nodepool.a", "type": "karpenter_nodepool", "change": {"actions": ["create"], "after": {}}},
			{"address": "karpenter_nodepool.b", "mode": "managed", "type": "karpenter_nodepool", "change": {"actions": ["create"]}},
			{"address": "karpenter_nodepool.c", "mode": "managed", "type": "karpenter_nodepool", "change": {"actions": ["update"], "after": 5}},
			{"mode": "managed", "change": {"actions": ["create"], "after": {}}},
			{"address": "azurerm_resource_group.x", "mode": "managed", "type": "azurerm_resource_group", "change": {"actions": ["create"], "after": {}}}
		]}`
		out := runJSON(t, plan, ExitClean, "-")
		var got []string
		for _, f := range out.Findings {
			got = append(got, f.Code+" "+f.Message)
		}
		want := []string{
			`karpenter_nodepool.a was not understood: mode ("") missing or invalid`,
			`karpenter_nodepool.b was not understood: change.after missing or invalid`,
			`the planned values of karpenter_nodepool.c are a number, not an object of attributes`,
			`resource_changes[3] was not understood: type, address missing or invalid`,
		}
		if len(got) != len(want) {
			t.Fatalf("findings:\n%s", strings.Join(got, "\n"))
		}
		for _, w := range want {
			if !strings.Contains(strings.Join(got, "\n"), w) {
				t.Errorf("no finding says %q:\n%s", w, strings.Join(got, "\n"))
			}
		}
	})
}
