package simulate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// In eastus the shop's zone-spread Deployment meets equally loaded zones, which Karpenter
// picks among at random: the JSON counts the ties and gives the cost range of Karpenter's
// outcomes, the text and markdown say so; in westus (no zones: one placement, regional) there is
// no tie. (westeurope has one no longer: its sizes are assumed offered in its three zones.)
func TestSimulateReportsKarpentersRandomTies(t *testing.T) {
	code, out, errOut := run(t, "", "--region", "eastus", "--format", "json", "testdata/shop")
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Karpenter struct {
			HourlyCost float64 `json:"hourlyCost"`
			TieBreaks  int     `json:"tieBreaks"`
			Range      *struct {
				Min, Max           float64
				MinNodes, MaxNodes int
				Outcomes, Runs     int
			} `json:"hourlyCostRange"`
		} `json:"karpenter"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	k := r.Karpenter
	if k.TieBreaks == 0 || k.Range == nil || k.Range.Min > k.HourlyCost || k.Range.Max < k.HourlyCost || k.Range.Outcomes < 1 || k.Range.Runs < 2 {
		t.Fatalf("eastus: tieBreaks %d, range %+v, cost %v: want the ties counted and the cost within the range", k.TieBreaks, k.Range, k.HourlyCost)
	}
	_, text, _ := run(t, "", "--region", "eastus", "testdata/shop")
	_, mdOut, _ := run(t, "", "--region", "eastus", "--format", "markdown", "testdata/shop")
	for _, s := range []string{text, mdOut} {
		if !strings.Contains(s, "ties randomly") || !strings.Contains(s, "every way of breaking them gives the same nodes and cost") {
			t.Errorf("no tie note in:\n%s", s)
		}
	}
	_, out, _ = run(t, "", "--region", "westus", "--format", "json", "testdata/shop")
	if strings.Contains(out, "hourlyCostRange") || strings.Contains(out, "tieBreaks") || !strings.Contains(out, `"zone": "0"`) {
		t.Errorf("westus has no zone and no tie, but the JSON reports one:\n%s", out)
	}
}

// The tie line says whether its range is every outcome Karpenter's choices can give, or the
// outcomes a search found, which is not a bound.
func TestTieTextSaysAllOutcomesOrASample(t *testing.T) {
	all := &simmodel.Simulation{TieBreaks: 5, CostRange: &simmodel.CostRange{Min: 1, Max: 2, MinNodes: 5, MaxNodes: 5, Outcomes: 3, Runs: 32, Exhaustive: true}}
	if got := tieText(all); !strings.Contains(got, "over all 3 outcomes") || strings.Contains(got, "sample") {
		t.Errorf("exhaustive: %q", got)
	}
	sample := &simmodel.Simulation{TieBreaks: 40, CostRange: &simmodel.CostRange{Min: 1, Max: 2, MinNodes: 5, MaxNodes: 6, Outcomes: 7, Runs: 16, Samples: 16}}
	if got := tieText(sample); !strings.Contains(got, "over the 7 outcomes found in 16 runs and 16 draws") || !strings.Contains(got, "not a bound") {
		t.Errorf("sample: %q", got)
	}
}

// Where every tie-break gives the same outcome, the line says so instead of a range of one
// value; an equal cost over several outcomes is one figure, and equal counts one number.
func TestTieTextWithOneOutcomeOrOneCost(t *testing.T) {
	one := &simmodel.Simulation{Currency: "USD", TieBreaks: 3, CostRange: &simmodel.CostRange{Min: 2, Max: 2, MinNodes: 4, MaxNodes: 4, MinPending: 332, MaxPending: 332, Outcomes: 1, Runs: 4, Exhaustive: true}}
	if got := tieText(one); !strings.Contains(got, "every way of breaking them gives the same nodes and cost, zones aside (all its choices walked in 4 runs)") || strings.Contains(got, "–") {
		t.Errorf("one outcome: %q", got)
	}
	same := &simmodel.Simulation{Currency: "USD", TieBreaks: 3, CostRange: &simmodel.CostRange{Min: 2, Max: 2, MinNodes: 4, MaxNodes: 4, MinPending: 1, MaxPending: 3, Outcomes: 2, Runs: 9, Exhaustive: true}}
	if got := tieText(same); !strings.Contains(got, "its cost is USD 2.0000/h, 4 nodes, 1–3 pods pending, over all 2 outcomes") {
		t.Errorf("same cost: %q", got)
	}
}
