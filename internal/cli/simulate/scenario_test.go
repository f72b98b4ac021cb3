package simulate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	scaleDownExample  = "../../../examples/simulate/scale-down"
	poolChangeExample = "../../../examples/simulate/pool-change"
)

// steadyJSON is a steady state as a consumer of --format json reads it.
type steadyJSON struct {
	Label       string         `json:"label"`
	HourlyCost  float64        `json:"hourlyCost"`
	Steady      bool           `json:"steady"`
	Nodes       []struct{}     `json:"nodes"`
	Totals      map[string]int `json:"totals"`
	PodsEvicted int            `json:"podsEvicted"`
	Seconds     *float64       `json:"secondsToSteadyState"`
	Disruptions []struct {
		Reason  string     `json:"reason"`
		Removed []struct{} `json:"removed"`
	} `json:"disruptions"`
}

// scenarioJSON runs simulate --format json on the paths and returns the one cluster's steady
// states before and after.
func scenarioJSON(t *testing.T, paths ...string) (before, after *steadyJSON) {
	t.Helper()
	code, out, errOut := run(t, "", append([]string{"--format", "json"}, paths...)...)
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Clusters []struct {
			SteadyState      *steadyJSON `json:"steadyState"`
			SteadyStateAfter *steadyJSON `json:"steadyStateAfter"`
		} `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Clusters) != 1 || rep.Clusters[0].SteadyState == nil {
		t.Fatalf("want one cluster with a steady state, got %s", out)
	}
	return rep.Clusters[0].SteadyState, rep.Clusters[0].SteadyStateAfter
}

// Scaling web from 40 replicas to 8 on a WhenEmptyOrUnderutilized pool: the change's steady
// state is cheaper, Karpenter got there by consolidating, and scenario.yaml gave the region.
func TestScenarioScaleDownConsolidatesToACheaperSteadyState(t *testing.T) {
	before, after := scenarioJSON(t, scaleDownExample)
	if after == nil {
		t.Fatal("no steadyStateAfter for a scenario with after/")
	}
	if !before.Steady || !after.Steady || !strings.Contains(after.Label, "steady state") {
		t.Errorf("want both runs steady, got before %v, after %v (%q)", before.Steady, after.Steady, after.Label)
	}
	if after.HourlyCost >= before.HourlyCost {
		t.Errorf("after the scale-down USD %.4f/h, before USD %.4f/h: want cheaper", after.HourlyCost, before.HourlyCost)
	}
	if after.Totals["Empty"]+after.Totals["Underutilized"] == 0 {
		t.Errorf("want an Empty or Underutilized disruption after the scale-down, got totals %v", after.Totals)
	}
	if len(after.Disruptions) == 0 || after.Seconds == nil || *after.Seconds <= 0 {
		t.Errorf("want the after run's disruptions and its time to the steady state, got %d disruptions, seconds %v", len(after.Disruptions), after.Seconds)
	}
	if len(before.Disruptions) != 0 {
		t.Errorf("the start state from an empty cluster should need no disruption, got %d", len(before.Disruptions))
	}
}

// Changing the pool's SKU family from D to E drifts every node the pool made before, and
// nothing else: the scenario needs no --cluster-state.
func TestScenarioPoolChangeDriftsEveryNode(t *testing.T) {
	before, after := scenarioJSON(t, poolChangeExample)
	if after == nil {
		t.Fatal("no steadyStateAfter for a scenario with after/")
	}
	if len(before.Nodes) == 0 || after.Totals["Drifted"] != len(before.Nodes) {
		t.Errorf("want every one of the %d nodes before drifted, got totals %v", len(before.Nodes), after.Totals)
	}
	if len(after.Nodes) != len(before.Nodes) || after.PodsEvicted == 0 {
		t.Errorf("want %d replacement nodes and the pods evicted, got %d nodes, %d evicted", len(before.Nodes), len(after.Nodes), after.PodsEvicted)
	}
}

// A directory with before/ alone is before/ as a plain directory: the same report, and no
// steady state after.
func TestScenarioBeforeAloneIsThePlainDirectory(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, filepath.Join(scaleDownExample, "before", "cluster.yaml"), filepath.Join(dir, "before", "cluster.yaml"))
	copyFile(t, filepath.Join(scaleDownExample, "scenario.yaml"), filepath.Join(dir, "scenario.yaml"))
	before, after := scenarioJSON(t, dir)
	if after != nil {
		t.Errorf("before/ alone has no change, got a steadyStateAfter")
	}
	plain, _ := scenarioJSON(t, "--region", "westeurope", filepath.Join(scaleDownExample, "before"))
	if before.HourlyCost != plain.HourlyCost || len(before.Nodes) != len(plain.Nodes) {
		t.Errorf("before/ alone: USD %.4f/h on %d nodes; the plain directory: USD %.4f/h on %d nodes", before.HourlyCost, len(before.Nodes), plain.HourlyCost, len(plain.Nodes))
	}
	codeA, outA, _ := run(t, "", dir)
	codeB, outB, _ := run(t, "", "--region", "westeurope", filepath.Join(scaleDownExample, "before"))
	if codeA != codeB || outA != outB {
		t.Errorf("before/ alone prints\n%s\nthe plain directory prints\n%s", outA, outB)
	}
}

// after/ without before/ has nothing to start from: a usage error that says so.
func TestScenarioAfterWithoutBeforeIsAnError(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, filepath.Join(scaleDownExample, "after", "cluster.yaml"), filepath.Join(dir, "after", "cluster.yaml"))
	code, _, errOut := run(t, "", "--region", "westeurope", dir)
	if code != ExitUsage || !strings.Contains(errOut, "after/ without before/") {
		t.Errorf("want exit %d naming after/ without before/, got %d: %s", ExitUsage, code, errOut)
	}
}

// A scenario.yaml the reader cannot take names its file.
func TestScenarioBadScenarioYAMLNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, filepath.Join(scaleDownExample, "before", "cluster.yaml"), filepath.Join(dir, "before", "cluster.yaml"))
	if err := os.WriteFile(filepath.Join(dir, "scenario.yaml"), []byte("regoin: westeurope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "", dir)
	if code != ExitUsage || !strings.Contains(errOut, filepath.Join(dir, "scenario.yaml")) || !strings.Contains(errOut, "regoin") {
		t.Errorf("want exit %d naming scenario.yaml and the unknown field, got %d: %s", ExitUsage, code, errOut)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Text and markdown show the change's steady state and its disruptions next to before's.
func TestScenarioTextAndMarkdownShowTheChange(t *testing.T) {
	for format, want := range map[string][]string{
		"text":     {") after the change: 1 node, USD 0.5940/h", "totals: Empty 2; 0 pods evicted"},
		"markdown": {"simulated clock) after the change | 1 | USD | 0.5940 |", "**Disruptions after the change** ((unnamed); simulated clock): Empty 2; 0 pods evicted", "- +1m15s Empty (empty)"},
	} {
		code, out, errOut := run(t, "", "--format", format, scaleDownExample)
		if code != ExitClean {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: want %q in\n%s", format, w, out)
			}
		}
	}
}
