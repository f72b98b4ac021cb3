package simulate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// simulate reports the drift findings of a cluster state at the NodePool's file: a budget of
// 100% drifts the three nodes all at once (KRP420), one of 0 for Drifted never (KRP421).
func TestSimulateClusterStateDriftFindings(t *testing.T) {
	after, err := os.ReadFile("../../../examples/simulate/pool-change/after/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for budgets, want := range map[string]string{
		`[{nodes: "100%"}]`:                  "KRP420",
		`[{nodes: "0", reasons: [Drifted]}]`: "KRP421",
		`[{nodes: "1"}]`:                     "",
	} {
		dir := t.TempDir()
		file := filepath.Join(dir, "cluster.yaml")
		if err := os.WriteFile(file, []byte(strings.Replace(string(after), `budgets: [{nodes: "1"}]`, "budgets: "+budgets, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := run(t, "", "--cluster-state", "../../../examples/simulate/pool-change/cluster-state.yaml", "--region", "westeurope", dir)
		if code == ExitUsage {
			t.Fatalf("%s: exit %d: %s", budgets, code, errOut)
		}
		for _, code := range []string{"KRP420", "KRP421"} {
			if got := strings.Contains(out, code); got != (code == want) {
				t.Errorf("%s: %s in the report: %v, want %v\n%s", budgets, code, got, code == want, out)
			}
		}
		if want != "" && !strings.Contains(out, "cluster.yaml") {
			t.Errorf("%s: the finding does not name the NodePool's file:\n%s", budgets, out)
		}
	}
}
