package review

import (
	"encoding/json"
	"strings"
	"testing"
)

// review --workloads --steady-state reports Karpenter's steady state as simulate does (the
// wide example's figures simulate's TestSteadyStateWide and the guide show); without the flag
// it does not run it.
func TestReviewWorkloadsSteadyState(t *testing.T) {
	t.Chdir("../../../examples/simulate/wide")
	args := []string{"--region", "westeurope", "--workloads", "workloads.yaml", "nodeclass.yaml", "nodepool.yaml"}
	type steady struct {
		Label       string            `json:"label"`
		Nodes       []json.RawMessage `json:"nodes"`
		HourlyCost  float64           `json:"hourlyCost"`
		Currency    string            `json:"currency"`
		Pending     int               `json:"pending"`
		Steady      bool              `json:"steady"`
		Totals      map[string]int    `json:"totals"`
		PodsEvicted int               `json:"podsEvicted"`
		Disruptions []struct {
			Seconds float64 `json:"seconds"`
			Reason  string  `json:"reason"`
		} `json:"disruptions"`
		Assumptions []string `json:"assumptions"`
	}
	read := func(extra ...string) []struct {
		HourlyCost  float64 `json:"hourlyCost"`
		SteadyState *steady `json:"steadyState"`
	} {
		r := run(t, "", append(append([]string{"--format", "json"}, extra...), args...)...)
		var out struct {
			Costs []struct {
				HourlyCost  float64 `json:"hourlyCost"`
				SteadyState *steady `json:"steadyState"`
			} `json:"costs"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("%v: %s %s", err, r.stdout, r.stderr)
		}
		return out.Costs
	}
	costs := read("--steady-state")
	if len(costs) != 1 || costs[0].SteadyState == nil {
		t.Fatalf("costs = %+v", costs)
	}
	s := costs[0].SteadyState
	if !s.Steady || len(s.Nodes) != 11 || s.HourlyCost != 155.792 || s.Currency != "USD" || s.Pending != 0 || !strings.HasPrefix(s.Label, "Karpenter's steady state, reached 3m15s") {
		t.Errorf("steady state = %+v", s)
	}
	if len(s.Disruptions) != 1 || s.Disruptions[0].Reason != "Underutilized" || s.Disruptions[0].Seconds != 105 || s.Totals["Underutilized"] != 1 || s.PodsEvicted != 50 {
		t.Errorf("disruptions = %+v, totals %v, evicted %d", s.Disruptions, s.Totals, s.PodsEvicted)
	}
	if len(s.Assumptions) == 0 || costs[0].HourlyCost != 152.791 {
		t.Errorf("assumptions %v, first round %v", s.Assumptions, costs[0].HourlyCost)
	}
	if plain := read(); len(plain) != 1 || plain[0].SteadyState != nil {
		t.Errorf("without --steady-state: %+v", plain)
	}
	text := run(t, "", append([]string{"--steady-state"}, args...)...)
	for _, want := range []string{
		"Karpenter's steady state, reached 3m15s after the start (provisioning, emptiness, drift and consolidation emulated; simulated clock): 11 nodes, USD 155.7920/h",
		"+1m45s Underutilized (single): Standard_D128as_v7 on-demand removed, Standard_HB120rs_v2 on-demand launched, 50 pods evicted",
		"NodePool general at the steady state: USD 155.7920/h",
	} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("text report lacks %q:\n%s", want, text.stdout)
		}
	}
}

// --steady-state without workloads to cost is a usage error that says what it needs.
func TestReviewSteadyStateNeedsWorkloads(t *testing.T) {
	r := run(t, "", "--steady-state", "testdata/single")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "give --workloads") {
		t.Errorf("code %d, stderr %q", r.code, r.stderr)
	}
}
