package review

import (
	"encoding/json"
	"strings"
	"testing"
)

// review --workloads reports, beside the first round's cost, the state after Karpenter's
// provisioning rounds (the wide example's figures the simulate test pins), in JSON and text.
func TestReviewWorkloadsRounds(t *testing.T) {
	t.Chdir("../../../examples/simulate/wide")
	args := []string{"--region", "westeurope", "--workloads", "workloads.yaml", "nodeclass.yaml", "nodepool.yaml"}
	r := run(t, "", append([]string{"--format", "json"}, args...)...)
	var out struct {
		Costs []struct {
			Provisioned *struct {
				Label      string            `json:"label"`
				Rounds     []json.RawMessage `json:"rounds"`
				Nodes      int               `json:"nodes"`
				HourlyCost float64           `json:"hourlyCost"`
			} `json:"provisioned"`
		} `json:"costs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v: %s %s", err, r.stdout, r.stderr)
	}
	if len(out.Costs) != 1 || out.Costs[0].Provisioned == nil {
		t.Fatalf("costs = %+v", out.Costs)
	}
	if p := out.Costs[0].Provisioned; len(p.Rounds) != 5 || p.Nodes != 11 || p.HourlyCost != 158.139 || !strings.HasPrefix(p.Label, "after 5 provisioning rounds") {
		t.Errorf("provisioned = %+v", p)
	}
	text := run(t, "", args...)
	if !strings.Contains(text.stdout, "the cost above is Karpenter's first round; after 5 provisioning rounds") {
		t.Errorf("text report lacks the rounds:\n%s", text.stdout)
	}
}
