package simulate

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// simulate --format json on the wide example gives Karpenter's steady state next to its
// first round: the nodes after the disruption controller ran, what it disrupted, and a label
// that says it is a steady state.
func TestWideExampleReportsTheSteadyStateAndItsDisruptions(t *testing.T) {
	rep, err := Simulate(context.Background(), Options{Paths: []string{wideExample}, Region: "westeurope", Mode: simulation.Karpenter})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, rep, "test"); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Clusters []struct {
			Karpenter struct {
				HourlyCost float64 `json:"hourlyCost"`
			} `json:"karpenter"`
			SteadyState *struct {
				Label       string                          `json:"label"`
				HourlyCost  float64                         `json:"hourlyCost"`
				Pending     int                             `json:"pending"`
				Steady      bool                            `json:"steady"`
				Nodes       []struct{ InstanceType string } `json:"nodes"`
				Disruptions []struct {
					Reason  string `json:"reason"`
					Removed []struct {
						InstanceType string `json:"instanceType"`
					} `json:"removed"`
					Replacements []struct {
						HourlyPrice float64 `json:"hourlyPrice"`
					} `json:"replacements"`
				} `json:"disruptions"`
				Totals map[string]int `json:"totals"`
			} `json:"steadyState"`
		} `json:"clusters"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	s := out.Clusters[0].SteadyState
	if s == nil {
		t.Fatal("no steadyState in the JSON")
	}
	t.Logf("%s: %d nodes, %v/h, %d disruptions %v", s.Label, len(s.Nodes), s.HourlyCost, len(s.Disruptions), s.Totals)
	if !s.Steady || s.Pending != 0 || len(s.Nodes) == 0 {
		t.Fatalf("steady %v, %d pending, %d nodes: want a steady state with every pod placed", s.Steady, s.Pending, len(s.Nodes))
	}
	if len(s.Disruptions) == 0 || s.Disruptions[0].Reason != "Underutilized" || len(s.Disruptions[0].Replacements) != 1 {
		t.Fatalf("disruptions %+v: want the wide pool's underutilized node replaced", s.Disruptions)
	}
	if s.Totals["Underutilized"] != len(s.Disruptions) {
		t.Errorf("totals %v do not count the %d disruptions", s.Totals, len(s.Disruptions))
	}
}
