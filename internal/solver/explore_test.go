package solver

import (
	"testing"
	"time"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/catalog"
)

func TestExplore(t *testing.T) {
	s := New(catalog.Default())
	obj := map[string]any{
		"metadata": map[string]any{"name": "general"},
		"spec": map[string]any{
			"limits": map[string]any{"cpu": "1"},
			"template": map[string]any{"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
				"requirements": []any{
					map[string]any{"key": "karpenter.azure.com/sku-family", "operator": "In", "values": []any{"D", "E", "N", "X"}},
					map[string]any{"key": "karpenter.azure.com/sku-cpu", "operator": "Lt", "values": []any{"33"}},
					map[string]any{"key": "karpenter.azure.com/sku-familly", "operator": "Exists"},
					map[string]any{"key": "karpenter.sh/capacity-type", "operator": "In", "values": []any{"spot", "on-demand"}, "minValues": int64(1)},
				},
			}},
		},
	}
	p, err := PoolFromObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	a := s.Analyze(p, Options{Region: "westeurope"})
	t.Logf("first: %v", time.Since(start))
	start = time.Now()
	a = s.Analyze(p, Options{Region: "westeurope"})
	t.Logf("second: %v admissible=%d", time.Since(start), len(a.Admissible))
	for _, f := range a.Findings {
		t.Log(f)
	}
	t.Logf("%+v", a.Summary)
	start = time.Now()
	a = s.Analyze(p, Options{})
	t.Logf("all regions first: %v admissible=%d %+v", time.Since(start), len(a.Admissible), a.Summary)
}
