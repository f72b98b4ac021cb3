package simulate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cn-north-1 prices in CNY: every amount simulate prints for it, in text, markdown and JSON,
// says so, and none reads as dollars.
func TestSimulateCNYRegion(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"nodepool.yaml", "ec2nodeclass.yaml"} {
		b, err := os.ReadFile(filepath.Join("../../../examples/eks/getting-started", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	web := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 6\n  selector: {matchLabels: {app: web}}\n" +
		"  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - {name: web, image: nginx, resources: {requests: {cpu: \"1\", memory: 2Gi}}}\n"
	if err := os.WriteFile(filepath.Join(dir, "web.yaml"), []byte(web), 0o644); err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string][]string{
		"text":     {"Karpenter would launch in its first round: 1 node, CNY ", "(CNY ", "/month)", "CNY/H EACH", "NodePool default: CNY "},
		"markdown": {"| CNY | ", "1 node, CNY ", "CNY/hour"},
		"json":     {`"currency": "CNY"`},
	} {
		code, out, errOut := run(t, "", "--region", "cn-north-1", "--mode", "both", "--format", format, dir)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s lacks %q:\n%s", format, w, out)
			}
		}
		if strings.Contains(out, "$") || strings.Contains(out, "USD") {
			t.Errorf("%s: a cn-north-1 amount reads as dollars:\n%s", format, out)
		}
		if format == "json" {
			var r struct {
				Currency  string
				Karpenter struct {
					Currency string
					Nodes    []struct{ Currency string }
				}
				Clusters []struct{ Currency string }
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatal(err)
			}
			if r.Currency != "CNY" || r.Karpenter.Currency != "CNY" || len(r.Karpenter.Nodes) == 0 || r.Karpenter.Nodes[0].Currency != "CNY" || r.Clusters[0].Currency != "CNY" {
				t.Errorf("json currencies %+v", r)
			}
		}
	}
}

// Two clusters pricing in different currencies are not added: the JSON sums say "mixed" and
// keep one sum per currency.
func TestSimulateMixedCurrencies(t *testing.T) {
	dir := t.TempDir()
	web := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 6\n  selector: {matchLabels: {app: web}}\n" +
		"  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - {name: web, image: nginx, resources: {requests: {cpu: \"1\", memory: 2Gi}}}\n"
	for _, c := range []string{"us", "cn"} {
		if err := os.MkdirAll(filepath.Join(dir, c), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"nodepool.yaml", "ec2nodeclass.yaml"} {
			b, err := os.ReadFile(filepath.Join("../../../examples/eks/getting-started", f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, c, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, c, "web.yaml"), []byte(web), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, ".karpenter-review.yaml")
	if err := os.WriteFile(cfg, []byte("clusters:\n  - {name: us, region: us-east-1, paths: [\"us/**\"]}\n  - {name: cn, region: cn-north-1, paths: [\"cn/**\"]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "", "--config", cfg, "--mode", "both", "--format", "json", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Currency             string
		LowerBound           float64
		LowerBoundByCurrency map[string]float64
		Karpenter            struct {
			Currency             string
			HourlyCost           float64
			HourlyCostByCurrency map[string]float64
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	k := r.Karpenter
	if r.Currency != "mixed" || r.LowerBound != 0 || len(r.LowerBoundByCurrency) != 2 || k.Currency != "mixed" || k.HourlyCost != 0 ||
		k.HourlyCostByCurrency["USD"] <= 0 || k.HourlyCostByCurrency["CNY"] <= 0 {
		t.Errorf("sums over a USD and a CNY cluster: %+v", r)
	}
}
