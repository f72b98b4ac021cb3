package review

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// review --workloads --steady-state reports Karpenter's steady state as simulate does (the
// wide example's figures simulate's TestSteadyStateWide and the guide show), and judges KRP118
// on it. One review serves the JSON and the text report: the advice runs every edit tried to
// its own steady state.
func TestReviewWorkloadsSteadyState(t *testing.T) {
	t.Chdir("../../../examples/simulate/wide")
	rep, err := ReviewWithCosts(context.Background(), Options{Paths: []string{"nodeclass.yaml", "nodepool.yaml"}, Region: "westeurope"},
		CostOptions{Workloads: []string{"workloads.yaml"}, SteadyState: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := report.WriteJSON(&buf, rep, "test"); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Costs []struct {
			HourlyCost  float64 `json:"hourlyCost"`
			SteadyState *struct {
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
			} `json:"steadyState"`
			Advice *struct {
				State      string  `json:"state"`
				HourlyCost float64 `json:"hourlyCost"`
			} `json:"advice"`
		} `json:"costs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatalf("%v: %s", err, buf.String())
	}
	if len(out.Costs) != 1 || out.Costs[0].SteadyState == nil {
		t.Fatalf("costs = %+v", out.Costs)
	}
	s := out.Costs[0].SteadyState
	if !s.Steady || len(s.Nodes) != 11 || s.HourlyCost != 155.792 || s.Currency != "USD" || s.Pending != 0 || !strings.HasPrefix(s.Label, "Karpenter's steady state, reached 3m15s") {
		t.Errorf("steady state = %+v", s)
	}
	if len(s.Disruptions) != 1 || s.Disruptions[0].Reason != "Underutilized" || s.Disruptions[0].Seconds != 105 || s.Totals["Underutilized"] != 1 || s.PodsEvicted != 50 {
		t.Errorf("disruptions = %+v, totals %v, evicted %d", s.Disruptions, s.Totals, s.PodsEvicted)
	}
	if len(s.Assumptions) == 0 || out.Costs[0].HourlyCost != 152.791 {
		t.Errorf("assumptions %v, first round %v", s.Assumptions, out.Costs[0].HourlyCost)
	}
	// KRP118 judges the steady state, with the figures simulate gives (its TestAdviceWidePool).
	if a := out.Costs[0].Advice; a == nil || a.State != simulation.AdviceSteadyState || a.HourlyCost != 42.062 {
		t.Errorf("advice = %+v", a)
	}
	var krp118 string
	for _, f := range rep.Findings {
		if f.Code == findings.KarpenterDesignCost {
			krp118 = f.Message
		}
	}
	if !strings.HasPrefix(krp118, "Karpenter's steady state (emulated: provisioning, emptiness, drift and consolidation) costs USD 155.79/h") ||
		!strings.Contains(krp118, "Karpenter's steady state with it costs USD 42.06/h") {
		t.Errorf("KRP118: %q", krp118)
	}
	buf.Reset()
	if err := report.WriteCostsText(&buf, rep.Costs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Karpenter's steady state, reached 3m15s after the start (provisioning, emptiness, drift and consolidation emulated; simulated clock): 11 nodes, USD 155.7920/h",
		"+1m45s Underutilized (single): Standard_D128as_v7 on-demand removed, Standard_HB120rs_v2 on-demand launched, 50 pods evicted",
		"NodePool general at the steady state: USD 155.7920/h",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, buf.String())
		}
	}
}

// Without --steady-state the review runs no steady state, and KRP118 says it judged the first
// round (the guide's figures for it).
func TestReviewWorkloadsFirstRoundAdvice(t *testing.T) {
	t.Chdir("../../../examples/simulate/wide")
	r := run(t, "", "--format", "json", "--region", "westeurope", "--workloads", "workloads.yaml", "nodeclass.yaml", "nodepool.yaml")
	var out struct {
		Costs []struct {
			SteadyState json.RawMessage `json:"steadyState"`
			Advice      *struct {
				State      string  `json:"state"`
				HourlyCost float64 `json:"hourlyCost"`
			} `json:"advice"`
		} `json:"costs"`
		Findings []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v: %s %s", err, r.stdout, r.stderr)
	}
	if len(out.Costs) != 1 || out.Costs[0].SteadyState != nil {
		t.Fatalf("costs = %+v", out.Costs)
	}
	if a := out.Costs[0].Advice; a == nil || a.State != simulation.AdviceFirstRound || a.HourlyCost != 44.058 {
		t.Errorf("advice = %+v", a)
	}
	found := false
	for _, f := range out.Findings {
		if f.Code == string(findings.KarpenterDesignCost) {
			found = strings.HasPrefix(f.Message, "Karpenter's first round launches nodes for USD 152.79/h") && strings.Contains(f.Message, "Karpenter's first round with it costs USD 44.06/h")
			if !found {
				t.Errorf("KRP118: %q", f.Message)
			}
		}
	}
	if !found {
		t.Error("no KRP118")
	}
}

// --steady-state without workloads to cost is a usage error that says what it needs.
func TestReviewSteadyStateNeedsWorkloads(t *testing.T) {
	r := run(t, "", "--steady-state", "testdata/single")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "give --workloads") {
		t.Errorf("code %d, stderr %q", r.code, r.stderr)
	}
}
