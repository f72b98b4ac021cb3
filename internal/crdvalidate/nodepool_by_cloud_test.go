package crdvalidate

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func poolWith(group, kind, key string, labels map[string]any) map[string]any {
	return map[string]any{
		"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": map[string]any{"name": "p"},
		"spec": map[string]any{"template": map[string]any{
			"metadata": map[string]any{"labels": labels},
			"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": group, "kind": kind, "name": "default"},
				"requirements": []any{map[string]any{"key": key, "operator": "Exists"}},
			},
		}},
	}
}

// EKS's NodePool CRD restricts the karpenter.k8s.aws label domain and not AKS's labels; AKS's
// the other way round. Each judges what its cluster's API server would.
func TestEKSNodePoolValidator(t *testing.T) {
	np := schema.GroupVersionKind{Group: "karpenter.sh", Version: "v1", Kind: "NodePool"}
	eks, err := NodePoolFor(np, "karpenter.k8s.aws")
	if err != nil {
		t.Fatal(err)
	}
	aks := MustFor(np)
	ctx := context.Background()
	typo := poolWith("karpenter.k8s.aws", "EC2NodeClass", "karpenter.k8s.aws/instance-categry", nil)
	if msgs := Messages(eks.Validate(ctx, typo)); len(msgs) == 0 || !strings.Contains(strings.Join(msgs, "\n"), `label domain "karpenter.k8s.aws" is restricted`) {
		t.Errorf("EKS's CRD on a typo in karpenter.k8s.aws: %q", msgs)
	}
	if msgs := Messages(aks.Validate(ctx, typo)); len(msgs) != 0 {
		t.Errorf("AKS's CRD rejects a karpenter.k8s.aws key: %q", msgs)
	}
	agentpool := poolWith("karpenter.k8s.aws", "EC2NodeClass", "karpenter.k8s.aws/instance-category", map[string]any{"agentpool": "general"})
	if msgs := Messages(eks.Validate(ctx, agentpool)); len(msgs) != 0 {
		t.Errorf("EKS's CRD rejects the label agentpool: %q", msgs)
	}
	if msgs := Messages(aks.Validate(ctx, agentpool)); !strings.Contains(strings.Join(msgs, "\n"), `label "agentpool" is restricted`) {
		t.Errorf("AKS's CRD on the label agentpool: %q", msgs)
	}
}

// NodePoolFor picks EKS's NodePool CRD by the pool's nodeClassRef.group, and AKS's otherwise.
func TestNodePoolForPicksByGroup(t *testing.T) {
	np := schema.GroupVersionKind{Group: "karpenter.sh", Version: "v1", Kind: "NodePool"}
	eks, _ := NodePoolFor(np, "karpenter.k8s.aws")
	if v, err := NodePoolFor(np, NodePoolGroup(poolWith("karpenter.k8s.aws", "EC2NodeClass", "k", nil))); err != nil || v != eks || v == MustFor(np) {
		t.Errorf("EKS pool: %v, %v", v, err)
	}
	if v, err := NodePoolFor(np, NodePoolGroup(poolWith("karpenter.azure.com", "AKSNodeClass", "k", nil))); err != nil || v != MustFor(np) {
		t.Errorf("AKS pool: %v, %v", v, err)
	}
}
