package review

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
)

// review --workloads on the wide on-demand pool of examples/simulate/wide: Karpenter's cost is
// far above the optimum, and the advice (KRP118) is a note on the pool's requirements with the
// requirement to add and Karpenter's cost with it (the numbers the simulate test pins).
func TestReviewWorkloadsAdvice(t *testing.T) {
	t.Chdir("../../../examples/simulate/wide")
	r := run(t, "", "--format", "json", "--region", "westeurope", "--workloads", "workloads.yaml", "nodeclass.yaml", "nodepool.yaml")
	var out struct {
		Findings []source.Finding `json:"findings"`
		Costs    []struct {
			Advice *struct {
				HourlyCost float64 `json:"hourlyCost"`
			} `json:"advice"`
		} `json:"costs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v: %s %s", err, r.stdout, r.stderr)
	}
	var got []source.Finding
	for _, f := range out.Findings {
		if f.Code == "KRP118" {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].File != "nodepool.yaml" || got[0].Line != 13 || got[0].Object != "NodePool/general" ||
		!strings.Contains(got[0].Message, "USD 152.79/h") || !strings.Contains(got[0].Message, "USD 44.06/h") ||
		!strings.Contains(got[0].Fix, `{key: karpenter.azure.com/sku-cpu, operator: Lt, values: ["65"]}`) {
		t.Fatalf("KRP118 findings = %+v", got)
	}
	if len(out.Costs) != 1 || out.Costs[0].Advice == nil || out.Costs[0].Advice.HourlyCost != 44.058 {
		t.Errorf("costs = %+v", out.Costs)
	}
}

// On the same pool KRP119 asks for sku-cpu Lt 625 (the largest cap whose limits hold three
// NodeClaims per round) and KRP118 for Lt 65 (the cheapest for the workloads): each fix says
// which to take, so they no longer disagree.
func TestReservationAndAdviceAgree(t *testing.T) {
	t.Chdir("../../../examples/simulate/wide")
	r := run(t, "", "--format", "json", "--region", "westeurope", "--workloads", "workloads.yaml", "nodeclass.yaml", "nodepool.yaml")
	var out struct {
		Findings []source.Finding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v: %s %s", err, r.stdout, r.stderr)
	}
	by := map[string]source.Finding{}
	count := map[string]int{}
	for _, f := range out.Findings {
		by[string(f.Code)] = f
		count[string(f.Code)]++
	}
	// review --workloads judges the pending pods as simulate does: the 332 pods of 35 workloads
	// the round leaves at the limits are notes, none a warning.
	if count["KRP305"] != 35 || count["KRP304"] != 0 {
		t.Errorf("KRP305 × %d, KRP304 × %d: want the 35 workloads the limits hold back as notes", count["KRP305"], count["KRP304"])
	}
	reservation, advice := by["KRP119"], by["KRP118"]
	if !strings.Contains(reservation.Fix, "karpenter.azure.com/sku-cpu Lt 625") ||
		!strings.Contains(reservation.Fix, "KRP118 advises the tighter karpenter.azure.com/sku-cpu Lt 65") {
		t.Errorf("KRP119 fix: %q", reservation.Fix)
	}
	if !strings.Contains(advice.Message, "it also satisfies KRP119 on the pool, whose karpenter.azure.com/sku-cpu Lt 625") {
		t.Errorf("KRP118 message: %q", advice.Message)
	}
}
