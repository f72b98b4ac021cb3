package crdvalidate

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Issue 31 item 7: a value that fails a pattern the project recognises is explained in words
// with the nearest valid value, not with the regular expression; the verdict (type, field,
// value) stays the API server's.
func TestExplainWordsPatternRejections(t *testing.T) {
	aksNodeClassGVK := schema.GroupVersionKind{Group: "karpenter.azure.com", Version: "v1beta1", Kind: "AKSNodeClass"}
	cases := []struct {
		name        string
		gvk         schema.GroupVersionKind
		edit        func(obj map[string]any)
		field       string
		nearest     string
		wantWording string
	}{
		{"consolidate_after in words", nodePoolGVK, func(o map[string]any) {
			spec(o)["disruption"] = map[string]any{"consolidateAfter": "5 min"}
		}, "spec.disruption.consolidateAfter", "5m", "whole numbers with the units s, m and h"},
		{"expire_after in days", nodePoolGVK, func(o map[string]any) {
			tmpl(o)["expireAfter"] = "2 days"
		}, "spec.template.spec.expireAfter", "48h", ", or Never"},
		{"never in lower case", nodePoolGVK, func(o map[string]any) {
			tmpl(o)["expireAfter"] = "never"
		}, "spec.template.spec.expireAfter", "Never", ", or Never"},
		{"budget duration in hours", nodePoolGVK, func(o map[string]any) {
			spec(o)["disruption"] = map[string]any{"budgets": []any{map[string]any{"nodes": "10%", "schedule": "0 9 * * 1-5", "duration": "1.5 hours"}}}
		}, "spec.disruption.budgets[0].duration", "1h30m", "whole hours and minutes"},
		{"cpu limit in cores", nodePoolGVK, func(o map[string]any) {
			spec(o)["limits"] = map[string]any{"cpu": "200 cores"}
		}, "spec.limits.cpu", "200", "a quantity is a number with an optional suffix"},
		{"memory limit in GiB", nodePoolGVK, func(o map[string]any) {
			spec(o)["limits"] = map[string]any{"memory": "800 GiB"}
		}, "spec.limits.memory", "800Gi", "a quantity is"},
		{"requirement key with a space", nodePoolGVK, func(o map[string]any) {
			tmpl(o)["requirements"] = []any{map[string]any{"key": "team name", "operator": "Exists"}}
		}, "spec.template.spec.requirements[0].key", "team-name", "a label key is"},
		{"name with capitals and underscore", nodePoolGVK, func(o map[string]any) {
			o["metadata"] = map[string]any{"name": "General_Purpose"}
		}, "metadata.name", "general-purpose", "lowercase RFC 1123 subdomain"},
		{"container log size in MB", aksNodeClassGVK, func(o map[string]any) {
			o["spec"] = map[string]any{"kubelet": map[string]any{"containerLogMaxSize": "50 MB"}}
		}, "spec.kubelet.containerLogMaxSize", "50M", "a size is a whole number with a unit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			obj := nodePool(map[string]any{"key": "karpenter.azure.com/sku-family", "operator": "In", "values": []any{"D"}})
			if c.gvk == aksNodeClassGVK {
				obj = map[string]any{"metadata": map[string]any{"name": "x"}}
			}
			c.edit(obj)
			v := MustFor(c.gvk)
			v.Default(obj)
			var found *field.Error
			for _, e := range v.Validate(context.Background(), obj) {
				if e.Field == c.field {
					found = e
				}
			}
			if found == nil {
				t.Fatalf("no rejection at %s: %v", c.field, v.Validate(context.Background(), obj))
			}
			msg, nearest := Explain(found), Nearest(found)
			t.Logf("API server: %s\nexplained:  %s", found.ErrorBody(), msg)
			if nearest != c.nearest {
				t.Errorf("nearest = %q, want %q", nearest, c.nearest)
			}
			if !strings.Contains(msg, c.wantWording) || !strings.Contains(msg, `did you mean "`+c.nearest+`"?`) {
				t.Errorf("message %q lacks %q and the suggestion", msg, c.wantWording)
			}
			if strings.Contains(msg, "[0-9]") || strings.Contains(msg, "regex") {
				t.Errorf("message still quotes the pattern: %q", msg)
			}
			if !strings.HasPrefix(msg, found.Type.String()) {
				t.Errorf("message %q does not keep the verdict %q", msg, found.Type)
			}
		})
	}
}

// A rejection of another kind is worded as the API server words it.
func TestExplainKeepsOtherRejections(t *testing.T) {
	e := field.NotSupported(field.NewPath("spec", "x"), "Foo", []string{"A", "B"})
	if msg, nearest := Explain(e), Nearest(e); msg != e.ErrorBody() || nearest != "" {
		t.Fatalf("Explain(%v) = %q, %q", e, msg, nearest)
	}
	// An unintelligible value keeps the wording, without a guess.
	e = field.Invalid(field.NewPath("spec", "limits", "cpu"), "lots", `spec.limits.cpu in body should match '^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$'`)
	if msg, nearest := Explain(e), Nearest(e); nearest != "" || strings.Contains(msg, "did you mean") || !strings.Contains(msg, "a quantity is") {
		t.Fatalf("Explain(lots) = %q, %q", msg, nearest)
	}
}

func spec(o map[string]any) map[string]any { return o["spec"].(map[string]any) }

func tmpl(o map[string]any) map[string]any {
	return spec(o)["template"].(map[string]any)["spec"].(map[string]any)
}

// Values past what a duration holds, or with words between the terms, get no guess.
func TestNearestDurationsRefusesNonsense(t *testing.T) {
	for _, v := range []string{"99999999999999 weeks", "5 min please", "soon", "5 fortnights"} {
		if got := nearestDurations(v); got != nil {
			t.Errorf("nearestDurations(%q) = %v, want none", v, got)
		}
	}
}
