package testenv

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestMain(m *testing.M) { Main(m) }

var nodePools = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}

func nodePool(name, operator string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"disruption": map[string]any{"consolidateAfter": "1m"},
			"template": map[string]any{"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
				"requirements": []any{map[string]any{"key": "karpenter.azure.com/sku-family", "operator": operator, "values": []any{"D"}}},
			}},
		},
	}}
}

// The cluster serves the AKS Karpenter CRDs and its own validation rejects bad objects.
func TestClusterServesKarpenterCRDs(t *testing.T) {
	c := Get(t)
	ctx := context.Background()
	created, err := c.Dynamic.Resource(nodePools).Create(ctx, nodePool("smoke", "In"), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create valid NodePool: %v", err)
	}
	t.Cleanup(func() { _ = c.Dynamic.Resource(nodePools).Delete(ctx, "smoke", metav1.DeleteOptions{}) })
	if got, _, _ := unstructured.NestedString(created.Object, "spec", "disruption", "consolidationPolicy"); got != "WhenEmptyOrUnderutilized" {
		t.Errorf("server-side default consolidationPolicy = %q", got)
	}
	_, err = c.Dynamic.Resource(nodePools).Create(ctx, nodePool("bad", "Sometimes"), metav1.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), "operator") {
		t.Fatalf("invalid operator not rejected by the API server: %v", err)
	}
}
