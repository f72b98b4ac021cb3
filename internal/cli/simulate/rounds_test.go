package simulate

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// The guide's figures for the wide example after its provisioning rounds.
const (
	guideRounds      = 5
	guideRoundsNodes = 11
	guideRoundsCost  = 158.139
)

// On the wide pool the rounds after the first place the 332 pods round 1 leaves at the
// limits, once the first NodeClaims are charged at their launched size; the guide shows that
// state next to the first round, labelled as what it is, and JSON carries every round.
func TestWidePoolRounds(t *testing.T) {
	rep := simulateWideBoth(t)
	p := rep.Clusters[0].Result.Provisioned
	if p == nil {
		t.Fatal("no provisioning rounds in karpenter mode")
	}
	if len(p.Rounds) != guideRounds || len(p.Nodes) != guideRoundsNodes || simulation.Round(p.HourlyCost) != guideRoundsCost || len(p.Unschedulable) != 0 || p.HitBound {
		t.Fatalf("%d rounds, %d nodes, $%v/h, pending %+v, bound hit %v; the guide says %d rounds, %d nodes, $%v/h, none pending",
			len(p.Rounds), len(p.Nodes), p.HourlyCost, p.Unschedulable, p.HitBound, guideRounds, guideRoundsNodes, guideRoundsCost)
	}
	if p.Rounds[0].Pending != guidePending {
		t.Errorf("round 1 leaves %d pods pending, the first-round view %d", p.Rounds[0].Pending, guidePending)
	}
	placed := 0
	for _, r := range p.Rounds {
		placed += r.Placed
	}
	if placed != 1000 {
		t.Errorf("the rounds placed %d of the 1,000 pods", placed)
	}
	guide, err := os.ReadFile("../../../templates/guides/what-will-karpenter-launch.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"  Karpenter " + simulation.ProvisionedLabel(p), "USD 158.14/h", "after 5\nprovisioning rounds"} {
		if !strings.Contains(string(guide), want) {
			t.Errorf("the guide lacks %q", want)
		}
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| karpenter "+simulation.ProvisionedLabel(p)+" | 11 | USD | 158.1390 |") {
		t.Errorf("markdown lacks the row after the rounds:\n%s", buf.String()[:min(buf.Len(), 800)])
	}
	buf.Reset()
	if err := WriteJSON(&buf, rep, "test"); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Clusters []struct {
			Provisioned struct {
				Label  string `json:"label"`
				Rounds []struct {
					Round   int `json:"round"`
					Pending int `json:"pending"`
				} `json:"rounds"`
				Nodes      []json.RawMessage `json:"nodes"`
				HourlyCost float64           `json:"hourlyCost"`
			} `json:"provisioned"`
		} `json:"clusters"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	jp := out.Clusters[0].Provisioned
	if len(jp.Rounds) != guideRounds || len(jp.Nodes) != guideRoundsNodes || jp.HourlyCost != guideRoundsCost || !strings.Contains(jp.Label, "not a steady state") {
		t.Errorf("JSON provisioned: %+v", jp)
	}
}
