package review

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
)

const webDeployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 6
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        resources: {requests: {cpu: "1", memory: 2Gi}}
`

func eksGettingStarted(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range []string{"nodepool.yaml", "ec2nodeclass.yaml"} {
		b, err := os.ReadFile(filepath.Join("../../../examples/eks/getting-started", f))
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}

// cn-north-1's prices are CNY (the AWS provider's aws-cn table): every amount the review
// prints for it, in the pool's facts, the predicted cost and the JSON, says CNY, and none
// reads as dollars.
func TestReviewCNYRegion(t *testing.T) {
	dir := t.TempDir()
	for f, text := range eksGettingStarted(t) {
		writeFile(t, filepath.Join(dir, "pools", f), text)
	}
	writeFile(t, filepath.Join(dir, "apps", "web.yaml"), webDeployment)
	pools, apps := filepath.Join(dir, "pools"), filepath.Join(dir, "apps")

	text := run(t, "", "--color", "never", "--region", "cn-north-1", "--workloads", apps, pools)
	if text.code != ExitClean {
		t.Fatalf("exit %d: %s", text.code, text.stderr)
	}
	for _, want := range []string{"cheapest c5a.large, on-demand, CNY 0.", "monthly cost at the limits CNY ", "Predicted cost of cluster (unnamed) (karpenter): CNY ", "optimal packing CNY ", "default                     1 node  CNY "} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("text lacks %q:\n%s", want, text.stdout)
		}
	}
	if strings.Contains(text.stdout, "$") || strings.Contains(text.stdout, "USD") {
		t.Errorf("a cn-north-1 amount reads as dollars:\n%s", text.stdout)
	}

	js := run(t, "", "--format", "json", "--region", "cn-north-1", "--workloads", apps, pools)
	var out struct {
		Pools []struct{ Facts []checks.Fact }
		Costs []struct {
			Currency   string
			HourlyCost float64
			Advice     *struct{ Currency string }
		}
	}
	if err := json.Unmarshal([]byte(js.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Costs) != 1 || out.Costs[0].Currency != "CNY" || out.Costs[0].HourlyCost <= 0 {
		t.Errorf("costs %+v, want CNY", out.Costs)
	}
	if strings.Contains(js.stdout, "$") {
		t.Errorf("a cn-north-1 amount reads as dollars in the JSON:\n%s", js.stdout)
	}

}

// A fleet of a CNY and a USD cluster never adds the two: the fleet table's total row and the
// JSON totals keep one sum per currency, and each cluster's amounts carry its own.
func TestFleetDoesNotAddCurrencies(t *testing.T) {
	files := map[string]string{}
	for f, text := range eksGettingStarted(t) {
		files["us/"+f], files["cn/"+f] = text, text
	}
	files["us/web.yaml"], files["cn/web.yaml"] = webDeployment, webDeployment
	cfg := "clusters:\n  - {name: us, region: us-east-1, paths: [\"us/**\"]}\n  - {name: cn, region: cn-north-1, paths: [\"cn/**\"]}\n"
	dir := writeFleetTree(t, cfg, files)

	text := run(t, "", "--color", "never", "--config", filepath.Join(dir, ".karpenter-review.yaml"), "--workloads", dir, dir)
	var total string
	for _, l := range strings.Split(text.stdout, "\n") {
		if strings.HasPrefix(l, "  total ") {
			total = l
		}
	}
	if f := strings.Fields(total); len(f) != 16 || f[1] != "CNY" || f[3] != "+" || f[4] != "USD" || f[8] != "+" || f[13] != "+" {
		t.Errorf("total row %q, want CNY … + USD … at the limits, Karpenter and the optimum:\n%s", total, text.stdout)
	}

	js := run(t, "", "--format", "json", "--config", filepath.Join(dir, ".karpenter-review.yaml"), "--workloads", dir, dir)
	var out struct {
		Fleet struct {
			Clusters []struct {
				Name         string
				CostAtLimits struct {
					Currency    string
					MonthlyCost float64
				}
				Predicted struct{ Currency string }
			}
			Totals map[string]map[string]float64
		}
	}
	if err := json.Unmarshal([]byte(js.stdout), &out); err != nil {
		t.Fatal(err)
	}
	cur := map[string]string{}
	for _, c := range out.Fleet.Clusters {
		cur[c.Name] = c.CostAtLimits.Currency + "/" + c.Predicted.Currency
	}
	if cur["us"] != "USD/USD" || cur["cn"] != "CNY/CNY" {
		t.Errorf("cluster currencies %v", cur)
	}
	for _, k := range []string{"costAtLimits", "predicted", "optimal"} {
		if m := out.Fleet.Totals[k]; len(m) != 2 || m["USD"] <= 0 || m["CNY"] <= 0 {
			t.Errorf("totals.%s = %v, want one sum per currency", k, m)
		}
	}
}

// A baseline priced in another currency (the cluster moved to a region that prices in CNY)
// is not compared: no change is computed across currencies, and a note says why.
func TestBaselineInAnotherCurrencyIsNotCompared(t *testing.T) {
	cc := report.ClusterCost{Cluster: "c", Method: "karpenter", HourlyCost: 2.656, Currency: "CNY", Pools: []report.PoolCost{{Pool: "default", Nodes: 1, HourlyCost: 2.656}}}
	compare(&cc, report.ClusterCost{Cluster: "c", Method: "karpenter", HourlyCost: 0.306, Currency: "USD", Pools: []report.PoolCost{{Pool: "default", Nodes: 1, HourlyCost: 0.306}}})
	if cc.BaselineHourlyCost != nil || cc.Pools[0].Delta != nil || cc.BaselineCurrency != "USD" {
		t.Errorf("compared across currencies: %+v", cc)
	}
	if len(cc.Notes) != 1 || !strings.Contains(cc.Notes[0], "USD 0.3060/h and is not compared: it prices in USD, this in CNY") {
		t.Errorf("notes %q", cc.Notes)
	}
}
