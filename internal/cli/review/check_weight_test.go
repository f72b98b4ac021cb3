package review

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

func pool(name string, weight any, reqs []any, taints []any) *source.Object {
	spec := map[string]any{"template": map[string]any{"spec": map[string]any{"requirements": reqs, "taints": taints}}}
	if weight != nil {
		spec["weight"] = weight
	}
	return &source.Object{Name: name, GVK: kinds.NodePool.GVK, Body: map[string]any{"metadata": map[string]any{"name": name}, "spec": spec}}
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
		a, b *source.Object
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
			got := checks.CheckEqualWeights(context.Background(), &assemble.Cluster{NodePools: []*source.Object{tc.a, tc.b}})
			if (len(got) == 1) != tc.want || len(got) > 1 {
				t.Errorf("findings %+v, want overlap=%v", got, tc.want)
			}
			if len(got) == 1 && got[0].Object != "NodePool/a" {
				t.Errorf("the pool Karpenter tries second (a < b) is reported: %s", got[0].Object)
			}
		})
	}
}

func labelled(o *source.Object, k, v string) *source.Object {
	o.Body["spec"].(map[string]any)["template"].(map[string]any)["metadata"] = map[string]any{"labels": map[string]any{k: v}}
	return o
}

func static(o *source.Object) *source.Object {
	o.Body["spec"].(map[string]any)["replicas"] = int64(2)
	return o
}

// Competing pools are reported once per group, naming its members (the work bound is tested
// in internal/analysis, where the check is).
func TestEqualWeightGroups(t *testing.T) {
	const tier = "example.com/tier"
	var identical []*source.Object
	for i := range 500 {
		identical = append(identical, pool(fmt.Sprintf("p%03d", i), nil, []any{req(tier, "In", "web")}, nil))
	}
	got := checks.CheckEqualWeights(context.Background(), &assemble.Cluster{NodePools: identical})
	if len(got) != 1 {
		t.Fatalf("500 identical pools: %d findings, want 1", len(got))
	}
	f := got[0]
	if f.Object != "NodePool/p498" || len(f.Related) != 499 ||
		!strings.Contains(f.Message, "500 NodePools (p499, p498, p497, p496, p495, p494, p493, p492, p491, p490 and 490 more) all have weight 0, the same taints and identical requirements") ||
		!strings.Contains(f.Message, "p499 gets the pods first") {
		t.Errorf("finding on %s, %d related: %s", f.Object, len(f.Related), f.Message)
	}
	if b, _ := json.Marshal(got); len(b) > 64<<10 {
		t.Errorf("the finding is %d bytes of JSON", len(b))
	}
	// 2,000 pools kept apart by one label: no finding, and no pair compared.
	var apart []*source.Object
	for i := range 2000 {
		apart = append(apart, pool(fmt.Sprintf("t%04d", i), nil, []any{req(tier, "In", fmt.Sprint(i)), req("kubernetes.io/arch", "In", "amd64")}, nil))
	}
	if got := checks.CheckEqualWeights(context.Background(), &assemble.Cluster{NodePools: apart}); len(got) != 0 {
		t.Errorf("pools apart: %d findings", len(got))
	}

	// A chain: a meets b, b meets c, a and c exclude each other; one group of three.
	chain := []*source.Object{
		pool("a", nil, []any{req(tier, "In", "x")}, nil),
		pool("b", nil, []any{req(tier, "In", "x", "y")}, nil),
		pool("c", nil, []any{req(tier, "In", "y")}, nil),
		pool("d", nil, []any{req(tier, "In", "z")}, nil),
	}
	got = checks.CheckEqualWeights(context.Background(), &assemble.Cluster{NodePools: chain})
	if len(got) != 1 || got[0].Object != "NodePool/b" || !strings.Contains(got[0].Message, "3 NodePools (c, b, a)") ||
		!strings.Contains(got[0].Message, "together with at least one other of them") {
		t.Errorf("chain: %+v", got)
	}
}

// End to end, a generated repository of identical pools gives one KRP202 and a report that
// grows linearly (it was 124,750 findings and 96 MB of JSON for 500 pools).
func TestIdenticalPoolsReport(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: karpenter.azure.com/v1beta1\nkind: AKSNodeClass\nmetadata: {name: default}\n")
	for i := range 300 {
		fmt.Fprintf(&b, "---\napiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p%d}\nspec:\n  limits: {cpu: \"100\"}\n  template:\n    spec:\n"+
			"      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}\n"+
			"      requirements: [{key: karpenter.azure.com/sku-family, operator: In, values: [D]}]\n", i)
	}
	r := run(t, b.String(), "--format", "json", "-")
	var out jsonOut
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if n := len(findingsOf(out, "KRP202")); n != 1 || len(out.Pools) != 300 {
		t.Errorf("%d KRP202 findings, %d pools", n, len(out.Pools))
	}
	// About 2 KB a pool: its facts, each price with its provenance.
	if len(r.stdout) > 1<<20 {
		t.Errorf("report of %d bytes for 300 pools", len(r.stdout))
	}
}
