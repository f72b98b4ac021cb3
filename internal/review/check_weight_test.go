package review

import (
	"context"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/nodepool"
)

func pool(name string, weight any, reqs []any, taints []any) *Object {
	spec := map[string]any{"template": map[string]any{"spec": map[string]any{"requirements": reqs, "taints": taints}}}
	if weight != nil {
		spec["weight"] = weight
	}
	return &Object{Name: name, GVK: nodepool.GVK, Body: map[string]any{"metadata": map[string]any{"name": name}, "spec": spec}}
}

func req(key, op string, values ...any) map[string]any {
	return map[string]any{"key": key, "operator": op, "values": values}
}

// Overlap is Karpenter's own requirement intersection: operators mean what they mean to it.
func TestEqualWeightOverlap(t *testing.T) {
	const fam = "karpenter.azure.com/sku-family"
	const cpu = "karpenter.azure.com/sku-cpu"
	noTaint := []any(nil)
	for _, tc := range []struct {
		name string
		a, b *Object
		want bool
	}{
		{"same values", pool("a", nil, []any{req(fam, "In", "D")}, noTaint), pool("b", nil, []any{req(fam, "In", "D", "E")}, noTaint), true},
		{"disjoint values", pool("a", nil, []any{req(fam, "In", "D")}, noTaint), pool("b", nil, []any{req(fam, "In", "E")}, noTaint), false},
		{"In vs NotIn", pool("a", nil, []any{req(fam, "In", "D")}, noTaint), pool("b", nil, []any{req(fam, "NotIn", "D")}, noTaint), false},
		{"NotIn vs NotIn allow an absent label", pool("a", nil, []any{req(fam, "NotIn", "D")}, noTaint), pool("b", nil, []any{req(fam, "DoesNotExist")}, noTaint), true},
		{"numeric ranges apart", pool("a", nil, []any{req(cpu, "Lt", "8")}, noTaint), pool("b", nil, []any{req(cpu, "Gt", "16")}, noTaint), false},
		{"numeric ranges meet", pool("a", nil, []any{req(cpu, "Lt", "33")}, noTaint), pool("b", nil, []any{req(cpu, "Gt", "16")}, noTaint), true},
		{"template label vs requirement", labelled(pool("a", nil, nil, noTaint), "tier", "web"), pool("b", nil, []any{req("tier", "In", "batch")}, noTaint), false},
		{"different weights", pool("a", int64(10), nil, noTaint), pool("b", nil, nil, noTaint), false},
		{"different taints", pool("a", nil, nil, []any{map[string]any{"key": "gpu", "effect": "NoSchedule"}}), pool("b", nil, nil, noTaint), false},
		{"PreferNoSchedule does not keep pods away", pool("a", nil, nil, []any{map[string]any{"key": "x", "effect": "PreferNoSchedule"}}), pool("b", nil, nil, noTaint), true},
		{"static pools take no pending pods", static(pool("a", nil, nil, noTaint)), pool("b", nil, nil, noTaint), false},
		{"invalid Gt value is left to the schema check", pool("a", nil, []any{req(cpu, "Gt", "many")}, noTaint), pool("b", nil, nil, noTaint), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckEqualWeights(context.Background(), &Cluster{NodePools: []*Object{tc.a, tc.b}})
			if (len(got) == 1) != tc.want || len(got) > 1 {
				t.Errorf("findings %+v, want overlap=%v", got, tc.want)
			}
			if len(got) == 1 && got[0].Object != "NodePool/a" {
				t.Errorf("the pool Karpenter tries second (a < b) is reported: %s", got[0].Object)
			}
		})
	}
}

func labelled(o *Object, k, v string) *Object {
	o.Body["spec"].(map[string]any)["template"].(map[string]any)["metadata"] = map[string]any{"labels": map[string]any{k: v}}
	return o
}

func static(o *Object) *Object {
	o.Body["spec"].(map[string]any)["replicas"] = int64(2)
	return o
}
