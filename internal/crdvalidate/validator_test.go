package crdvalidate

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

var nodePoolGVK = schema.GroupVersionKind{Group: "karpenter.sh", Version: "v1", Kind: "NodePool"}

func nodePool(requirements ...any) map[string]any {
	return map[string]any{
		"metadata": map[string]any{"name": "general"},
		"spec": map[string]any{
			"template": map[string]any{"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
				"requirements": requirements,
			}},
		},
	}
}

func TestValidNodePoolPasses(t *testing.T) {
	v := MustFor(nodePoolGVK)
	obj := nodePool(map[string]any{"key": "karpenter.azure.com/sku-family", "operator": "In", "values": []any{"D"}})
	if errs := v.Validate(context.Background(), obj); len(errs) != 0 {
		t.Fatalf("valid NodePool rejected: %v", errs)
	}
}

func TestCELRuleRejectsRestrictedLabel(t *testing.T) {
	v := MustFor(nodePoolGVK)
	obj := nodePool(map[string]any{"key": "karpenter.sh/nodepool", "operator": "In", "values": []any{"x"}})
	errs := v.Validate(context.Background(), obj)
	if len(errs) == 0 {
		t.Fatal("restricted requirement key accepted")
	}
	if !strings.Contains(errs.ToAggregate().Error(), "restricted") {
		t.Fatalf("unexpected errors: %v", errs)
	}
	for _, e := range errs {
		t.Logf("%s: %s", e.Field, e.Error())
	}
}

func TestDefaultsMatchCRD(t *testing.T) {
	v := MustFor(nodePoolGVK)
	obj := nodePool()
	v.Default(obj)
	spec := obj["spec"].(map[string]any)
	d := spec["disruption"].(map[string]any)
	if d["consolidationPolicy"] != "WhenEmptyOrUnderutilized" || d["consolidateAfter"] != "0s" {
		t.Fatalf("disruption defaults not applied: %v", d)
	}
}
