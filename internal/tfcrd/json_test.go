package tfcrd_test

import (
	"encoding/json"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdresource"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/nodepool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

func nodePoolTree() *tfcrd.Node {
	return crdresource.Tree(nodepool.Kind, crdvalidate.MustFor(nodepool.GVK))
}

// FromJSON must build exactly the object ToObject builds from the same values, so that a
// plan reviewed from JSON is judged as the provider judged it at plan time.
func TestFromJSONMatchesToObject(t *testing.T) {
	root := nodePoolTree()
	obj := map[string]any{
		"metadata": map[string]any{"name": "general"},
		"spec": map[string]any{
			"weight": int64(10),
			"limits": map[string]any{"cpu": "200", "nvidia.com/gpu": "4"},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"tier": "general"}},
				"spec": map[string]any{
					"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
					"requirements": []any{
						map[string]any{"key": "karpenter.sh/capacity-type", "operator": "In", "values": []any{"spot", "on-demand"}},
						map[string]any{"key": "karpenter.azure.com/sku-cpu", "operator": "Lt", "values": []any{"33"}, "minValues": int64(2)},
					},
					"taints":      []any{map[string]any{"key": "dedicated", "value": "general", "effect": "NoSchedule"}},
					"expireAfter": "720h",
				},
			},
			"disruption": map[string]any{"consolidationPolicy": "WhenEmpty", "budgets": []any{map[string]any{"nodes": "10%"}}},
		},
	}
	attrs, err := root.FromObject(obj, tftypes.NewValue(root.Type(), nil), true)
	if err != nil {
		t.Fatal(err)
	}
	value := tftypes.NewValue(root.Type(), attrs)
	want, err := root.ToObject(value)
	if err != nil {
		t.Fatal(err)
	}
	// The JSON form, as terraform show -json prints it, decoded as the review decodes it.
	raw, err := json.Marshal(toJSON(t, value))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	got, probs := root.FromJSON(m, nil)
	if len(probs) > 0 {
		t.Fatalf("problems: %+v", probs)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FromJSON:\n%#v\nToObject:\n%#v", got, want)
	}
}

// Unknown values (after_unknown) become tfcrd.Unknown wherever they stand, and attributes of
// another provider version are reported with their Terraform paths, not a failure.
func TestFromJSONUnknownAndForeignAttributes(t *testing.T) {
	root := nodePoolTree()
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
	if _, ok := spec["limits"].(map[string]any)["memory"].(tfcrd.Unknown); !ok {
		t.Errorf("unknown map entry: %#v", spec["limits"])
	}
	tmpl := spec["template"].(map[string]any)["spec"].(map[string]any)
	if _, ok := tmpl["nodeClassRef"].(map[string]any)["name"].(tfcrd.Unknown); !ok {
		t.Errorf("unknown attribute: %#v", tmpl["nodeClassRef"])
	}
	vals := tmpl["requirements"].([]any)[0].(map[string]any)["values"].([]any)
	if vals[0] != "spot" {
		t.Errorf("values[0] = %#v", vals[0])
	}
	if _, ok := vals[1].(tfcrd.Unknown); !ok {
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

// toJSON renders a known value as Terraform's JSON output does: objects and maps as JSON
// objects, lists as arrays, numbers as numbers, nulls as null.
func toJSON(t *testing.T, v tftypes.Value) any {
	t.Helper()
	if v.IsNull() {
		return nil
	}
	typ := v.Type()
	switch {
	case typ.Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case typ.Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	case typ.Is(tftypes.Number):
		var f big.Float
		_ = v.As(&f)
		return json.Number(f.Text('f', -1))
	case typ.Is(tftypes.List{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		out := make([]any, 0, len(elems))
		for _, e := range elems {
			out = append(out, toJSON(t, e))
		}
		return out
	default: // objects and maps
		m := map[string]tftypes.Value{}
		if err := v.As(&m); err != nil {
			t.Fatalf("toJSON %s: %v", typ, err)
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			out[k] = toJSON(t, e)
		}
		return out
	}
}
