package tfcrd_test

import (
	"encoding/json"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// FromJSON must build exactly the object ToObject builds from the same values, so that a
// plan reviewed from JSON is judged as the provider judged it at plan time.
func TestFromJSONMatchesToObject(t *testing.T) {
	root := kinds.NodePool.Tree()
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
	attrs, err := tfcrd.FromObject(root, obj, tftypes.NewValue(tfcrd.Type(root), nil), true)
	if err != nil {
		t.Fatal(err)
	}
	value := tftypes.NewValue(tfcrd.Type(root), attrs)
	want, err := tfcrd.ToObject(root, value)
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
