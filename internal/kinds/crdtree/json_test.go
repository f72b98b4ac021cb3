package crdtree_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// Unknown values (after_unknown) become crdtree.Unknown wherever they stand, and attributes of
// another provider version are reported with their Terraform paths, not a failure.
func TestFromJSONUnknownAndForeignAttributes(t *testing.T) {
	root := kinds.NodePool.Tree()
	var after, unknown map[string]any
	mustDecode(t, `{
		"name": "gpu", "id": null, "future_field": "x",
		"limits": {"cpu": "8"},
		"weight": "heavy",
		"template": {
			"node_class_ref": {"group": "karpenter.azure.com", "kind": "AKSNodeClass"},
			"requirements": [
				{"key": "karpenter.sh/capacity-type", "operator": "In", "values": ["spot", null]},
				{"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64"], "priority": 1}
			]
		}
	}`, &after)
	mustDecode(t, `{"limits": {"memory": true}, "template": {"node_class_ref": {"name": true}, "requirements": [{"values": [false, true]}]}}`, &unknown)
	delete(after, "id") // a resource attribute outside the CRD tree; the caller removes it
	got, probs := root.FromJSON(after, unknown)

	spec := got["spec"].(map[string]any)
	if _, ok := spec["limits"].(map[string]any)["memory"].(crdtree.Unknown); !ok {
		t.Errorf("unknown map entry: %#v", spec["limits"])
	}
	tmpl := spec["template"].(map[string]any)["spec"].(map[string]any)
	if _, ok := tmpl["nodeClassRef"].(map[string]any)["name"].(crdtree.Unknown); !ok {
		t.Errorf("unknown attribute: %#v", tmpl["nodeClassRef"])
	}
	vals := tmpl["requirements"].([]any)[0].(map[string]any)["values"].([]any)
	if vals[0] != "spot" {
		t.Errorf("values[0] = %#v", vals[0])
	}
	if _, ok := vals[1].(crdtree.Unknown); !ok {
		t.Errorf("unknown list element: %#v", vals)
	}
	if _, ok := spec["weight"]; ok {
		t.Errorf("a value of the wrong shape must be left out: %#v", spec["weight"])
	}
	wantProbs := map[string]string{
		"future_field":                      "not an attribute",
		"weight":                            "expected an integer, got a string",
		"template.requirements[1].priority": "not an attribute",
	}
	if len(probs) != len(wantProbs) {
		t.Errorf("problems = %+v", probs)
	}
	for _, p := range probs {
		if w, ok := wantProbs[p.Path]; !ok || !strings.Contains(p.Reason, w) {
			t.Errorf("unexpected problem %+v", p)
		}
	}
}

func mustDecode(t *testing.T, s string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatal(err)
	}
}
