package simulate

import (
	"encoding/json"
	"testing"
)

// TestScenarioNodeClassChangeDrifts: a scenario whose after/ changes only the AKSNodeClass
// (its image family) drifts the pool's nodes by the node-class hash.
func TestScenarioNodeClassChangeDrifts(t *testing.T) {
	code, out, errOut := run(t, "", "--format", "json", "testdata/class-change")
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Clusters []struct {
			SteadyState, SteadyStateAfter *struct {
				Nodes  []json.RawMessage `json:"nodes"`
				Totals map[string]int    `json:"totals"`
			}
		} `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	c := rep.Clusters[0]
	if c.SteadyState == nil || c.SteadyStateAfter == nil {
		t.Fatalf("no steady state before and after:\n%s", out)
	}
	if got, want := c.SteadyStateAfter.Totals["Drifted"], len(c.SteadyState.Nodes); got != want || want == 0 {
		t.Errorf("Drifted %d after the image-family change, want every node before (%d)", got, want)
	}
}
