package simulation

import (
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// The edits tried per pool: caps below the pool's own sku-cpu cap (replacing it), spot for an
// on-demand-only pool, the sku-family restriction removed; never more than MaxAdviceRuns over
// all pools, and the pool the edit names is the one edited.
func TestAdviceCandidates(t *testing.T) {
	capped := pool(t, "")
	reqs := capped["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
	reqs["requirements"] = append(reqs["requirements"].([]any), map[string]any{"key": skuCPUKey, "operator": "Lt", "values": []any{"33"}})
	p, err := analysis.PoolFromObject(capped)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range candidates(analysis.New(catalog.Default()).Clouds(), []simmodel.SimPool{{Pool: p}}) {
		got = append(got, c.edit.YAML())
		n := 0
		for _, r := range c.nodePool.Spec.Template.Spec.Requirements {
			if r.Key == skuCPUKey && r.Operator == "Lt" {
				n++
			}
		}
		if c.edit.Requirement.Key == skuCPUKey && (n != 1 || !c.edit.Replaces) {
			t.Errorf("%s: %d sku-cpu Lt requirements, replaces %v: the cap must replace the pool's", c.edit.YAML(), n, c.edit.Replaces)
		}
	}
	want := []string{
		`- {key: karpenter.azure.com/sku-cpu, operator: Lt, values: ["9"]}`,
		`- {key: karpenter.azure.com/sku-cpu, operator: Lt, values: ["17"]}`,
		`- {key: karpenter.sh/capacity-type, operator: In, values: ["spot", "on-demand"]}`,
		`- {key: karpenter.azure.com/sku-family, operator: In, values: ["D"]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("candidates:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(p.Spec.Template.Spec.Requirements) != 3 {
		t.Errorf("the pool itself was edited: %+v", p.Spec.Template.Spec.Requirements)
	}

	var many []simmodel.SimPool
	for range 5 {
		q, err := analysis.PoolFromObject(pool(t, ""))
		if err != nil {
			t.Fatal(err)
		}
		many = append(many, simmodel.SimPool{Pool: q})
	}
	for i := range many {
		many[i].Pool.Name = string(rune('a' + i))
	}
	cs := candidates(analysis.New(catalog.Default()).Clouds(), many)
	tried := map[string]bool{}
	for _, c := range cs {
		tried[c.edit.Pool] = true
	}
	if len(cs) != MaxAdviceRuns || len(tried) != len(many) {
		t.Errorf("%d candidates over %d of 5 pools, want the bound %d over all", len(cs), len(tried), MaxAdviceRuns)
	}
}
