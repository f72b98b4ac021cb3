package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
)

const blockedApp = `apiVersion: apps/v1
kind: Deployment
metadata: {name: db}
spec:
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, resources: {requests: {cpu: "1", memory: 2Gi}}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: db}
spec:
  maxUnavailable: 0
  selector: {matchLabels: {app: db}}
`

// review --workloads reports a PodDisruptionBudget that blocks the expiry of the pool
// Karpenter places its pods on (KRP411) at the budget's line, and --suppress, the config's
// SuppressCodes and --strict apply to it as to the review's own findings.
func TestReviewWorkloadsExpiryBlockedByPDB(t *testing.T) {
	root := t.TempDir()
	writeCheckout(t, root, "general", "D", "1")
	if err := os.WriteFile(filepath.Join(root, "apps", "api.yaml"), []byte(blockedApp), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	find := func(out jsonOut) (string, string) {
		for _, f := range out.Findings {
			if f.Code == "KRP411" {
				return report.PlaceOf(f.Location) + " " + f.Object + " " + f.Field, f.Severity
			}
		}
		return "", ""
	}
	out := runJSON(t, "", ExitClean, "--region", "westeurope", "--workloads", "apps", "pools")
	if at, sev := find(out); at != "apps/api.yaml:16 PodDisruptionBudget/db spec.maxUnavailable" || sev != "warning" {
		t.Fatalf("KRP411 at %q (%s); findings %v", at, sev, out.brief())
	}
	for _, f := range out.Findings {
		if f.Code == "KRP411" && !strings.Contains(f.Message, "NodePool/general expires its nodes after 720h") {
			t.Errorf("message %q does not name the pool and its expiry", f.Message)
		}
	}
	if _, sev := find(runJSON(t, "", ExitFindings, "--region", "westeurope", "--strict", "--workloads", "apps", "pools")); sev != "error" {
		t.Errorf("--strict: severity %q", sev)
	}
	if at, _ := find(runJSON(t, "", ExitClean, "--region", "westeurope", "--suppress", "KRP411", "--workloads", "apps", "pools")); at != "" {
		t.Errorf("--suppress KRP411 kept %s", at)
	}
	if err := os.WriteFile(".karpenter-review.yaml", []byte("region: westeurope\nsuppress: [KRP411]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if at, _ := find(runJSON(t, "", ExitClean, "--workloads", "apps", "pools")); at != "" {
		t.Errorf("suppress in the config kept %s", at)
	}
	// With a terminationGracePeriod the drain is bounded: no finding.
	pool, _ := os.ReadFile("pools/pool.yaml")
	bounded := strings.Replace(string(pool), "      nodeClassRef:", "      terminationGracePeriod: 24h\n      nodeClassRef:", 1)
	if err := os.WriteFile("pools/pool.yaml", []byte(bounded), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(".karpenter-review.yaml"); err != nil {
		t.Fatal(err)
	}
	if at, _ := find(runJSON(t, "", ExitClean, "--region", "westeurope", "--workloads", "apps", "pools")); at != "" {
		t.Errorf("terminationGracePeriod set: %s", at)
	}
}

// KRP302 (pods without requests) names the pool Karpenter's prediction puts the pods on; a
// single replica there without a budget is KRP412, a note.
func TestReviewWorkloadsNamePoolOfRequestlessPods(t *testing.T) {
	root := t.TempDir()
	writeCheckout(t, root, "general", "D", "1")
	app := strings.Replace(costApp, `resources: {requests: {cpu: "1", memory: 2Gi}}`, `resources: {requests: {cpu: "1"}}`, 1)
	if err := os.WriteFile(filepath.Join(root, "apps", "api.yaml"), []byte(strings.ReplaceAll(app, "%REPLICAS%", "1")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	out := runJSON(t, "", ExitClean, "--region", "westeurope", "--workloads", "apps", "pools")
	var krp302, krp412 string
	for _, f := range out.Findings {
		switch f.Code {
		case "KRP302":
			krp302 = f.Message
		case "KRP412":
			krp412 = report.PlaceOf(f.Location) + " " + f.Severity
		}
	}
	if !strings.HasSuffix(krp302, "request no memory: Karpenter packs them as needing none, so nodes are sized without them (Karpenter's predicted placement puts them on NodePool/general)") {
		t.Errorf("KRP302 message %q", krp302)
	}
	if krp412 != "apps/api.yaml:5 note" {
		t.Errorf("KRP412 at %q; findings %v", krp412, out.brief())
	}
}
