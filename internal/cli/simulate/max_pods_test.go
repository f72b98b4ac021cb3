package simulate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A typo in replicas (1,000,000) stops at the cap before any work, with KRP306 at the
// workload's spec.replicas line; --max-pods and --max-nodes set the caps, the nodes' from a
// lower bound on the nodes the pods need.
func TestReplicasPastTheCap(t *testing.T) {
	dir := t.TempDir()
	write := func(apps string) {
		t.Helper()
		for name, body := range map[string]string{"pool.yaml": neverPool, "apps.yaml": apps} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	krp306 := func(args ...string) (int, string, int) {
		t.Helper()
		code, out, stderr := run(t, "", append([]string{"--region", "westeurope", "--format", "json"}, append(args, dir)...)...)
		var rep report
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("exit %d, %v: %s %s", code, err, out, stderr)
		}
		for _, f := range rep.Findings {
			if f.Code == "KRP306" {
				return code, f.Message, f.Line
			}
		}
		return code, "", 0
	}
	write(deployment("typo", 1000000, "100m", ""))
	start := time.Now()
	code, msg, line := krp306()
	if code != ExitFindings || !strings.Contains(msg, "Deployment/typo runs 1000000 pods") || line != 6 {
		t.Errorf("1,000,000 replicas: exit %d, line %d, %q", code, line, msg)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the cap took %v: the work was not stopped before", d)
	}
	write(deployment("web", 200, "100m", ""))
	if code, msg, _ := krp306("--max-pods", "100"); code != ExitFindings || !strings.Contains(msg, "past the cap of 100 pods") {
		t.Errorf("--max-pods 100: exit %d, %q", code, msg)
	}
	if code, msg, _ := krp306("--max-pods", "300"); code != ExitClean || msg != "" {
		t.Errorf("--max-pods 300: exit %d, %q", code, msg)
	}
	// 200 pods of 64 CPU need at least 200 × 64 CPU over the largest size's allocatable (under 900 vCPU) nodes.
	write(deployment("wide", 200, "64", ""))
	if code, msg, line := krp306("--max-nodes", "3"); code != ExitFindings || !strings.Contains(msg, "past the cap of 3 nodes") || line != 6 {
		t.Errorf("--max-nodes 3: exit %d, line %d, %q", code, line, msg)
	}
}
