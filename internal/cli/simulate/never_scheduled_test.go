package simulate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const neverPool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: small
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
        - {key: karpenter.azure.com/sku-cpu, operator: Lt, values: ["9"]}
  limits:
    cpu: "16"
`

// deployment is a Deployment of n pods requesting cpu each, with an optional node selector line.
func deployment(name string, n int, cpu, selector string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ` + name + `
spec:
  replicas: ` + strconv.Itoa(n) + `
  selector: {matchLabels: {app: ` + name + `}}
  template:
    metadata:
      labels: {app: ` + name + `}
    spec:` + selector + `
      containers:
        - name: app
          resources:
            requests: {cpu: "` + cpu + `", memory: 1Gi}
`
}

// Pods no pool can ever take are a warning naming the workload, its count and Karpenter's
// reason, so --strict --fail-on warning fails; pods pending only because the round used up the
// pool's limits are a note. "Ever" is judged on one pod of the workload alone: 16 CPU of
// limits hold one 8-vCPU node, so pods of 2 CPU pend only for the limits, and a pod of 12 CPU
// (no size under 9 vCPU fits it) or one selecting a zone the region lacks never schedules.
func TestPodsThatNeverSchedule(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"pool.yaml": neverPool,
		"apps.yaml": deployment("big", 2, "12", "") + "---\n" +
			deployment("elsewhere", 3, "1", "\n      nodeSelector: {topology.kubernetes.io/zone: mars-1}") + "---\n" +
			deployment("many", 20, "2", ""),
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := run(t, "", "--region", "westeurope", "--format", "json", "--strict", "--fail-on", "warning", dir)
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d (a warning under --strict --fail-on warning); stderr %s", code, ExitFindings, stderr)
	}
	var rep report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range rep.Findings {
		if f.Code == "KRP304" || f.Code == "KRP305" {
			got[f.Object] = f.Code + " " + f.Message
			if f.File == "" || f.Line == 0 {
				t.Errorf("%s %s: no file:line", f.Code, f.Object)
			}
		}
	}
	for obj, want := range map[string][]string{
		"Deployment/big":       {"KRP304", "2 pods of Deployment/big can never be scheduled", "no instance type"},
		"Deployment/elsewhere": {"KRP304", "3 pods of Deployment/elsewhere can never be scheduled", "mars-1"},
		"Deployment/many":      {"KRP305", "of Deployment/many are left pending", "limits"},
	} {
		for _, w := range want {
			if !strings.Contains(got[obj], w) {
				t.Errorf("%s: %q lacks %q", obj, got[obj], w)
			}
		}
	}
	// Without --strict, the warnings fail --fail-on warning and the note alone would not.
	if code, _, _ := run(t, "", "--region", "westeurope", "--fail-on", "error", dir); code != ExitClean {
		t.Errorf("--fail-on error: exit %d", code)
	}
}
