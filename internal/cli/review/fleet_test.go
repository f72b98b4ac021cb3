package review

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/fleet"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
)

// fleetJSON is the JSON report's fleet object as a consumer reads it (field names are part of
// the report's layout).
type fleetJSON struct {
	Fleet *struct {
		Clusters []struct {
			Name, Region, Group    string
			NodePools, NodeClasses int
			Limits                 struct {
				CPU, Memory *struct {
					Total string
					Pools int
				}
				PoolsWithoutLimits []string `json:"poolsWithoutLimits"`
			}
			CostAtLimits struct {
				MonthlyCost  float64  `json:"monthlyCost"`
				Pools        int      `json:"pools"`
				Uncosted     []string `json:"uncostedPools"`
				PriceSources []string `json:"priceSources"`
				Scope        string   `json:"scope"`
			} `json:"costAtLimits"`
			Predicted *struct {
				Method                          string
				HourlyCost, OptimalHourlyCost   float64
				MonthlyCost, OptimalMonthlyCost float64
			} `json:"predicted"`
			Findings struct{ Errors, Warnings, Notes int }
		} `json:"clusters"`
		Groups []struct {
			Name               string
			Clusters, Compared []string
			Regional           bool `json:"regionalSkipped"`
		} `json:"groups"`
	} `json:"fleet"`
}

func fleetReport(t *testing.T, args ...string) (jsonOut, fleetJSON) {
	t.Helper()
	r := run(t, "", append([]string{"--format", "json"}, args...)...)
	if r.code != ExitClean && r.code != ExitFindings {
		t.Fatalf("exit code %d\nstderr: %s", r.code, r.stderr)
	}
	var out jsonOut
	var fl fleetJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(r.stdout), &fl); err != nil {
		t.Fatal(err)
	}
	return out, fl
}

// fleetFindings are the brief lines of the KRP32x findings.
func fleetFindings(o jsonOut) []string {
	return slices.DeleteFunc(o.brief(), func(s string) bool { return !strings.Contains(s, " KRP32") })
}

// The fixture fleet: prod-eus lacks the batch pool (KRP320, counted for prod-eus), prod-neu's
// patch halves the general pool's limits (KRP321 at the patch, the base as related). What is
// not drift is not reported: prod-eus's zones (its regions differ from the others'), its
// requirements in another order, its cpu limit written as 200000m, and a label on its class.
func TestFleetFixtureJSON(t *testing.T) {
	out, fl := fleetReport(t, "testdata/fleet")
	sameLines(t, fleetFindings(out), []string{
		"testdata/fleet/base/batch.yaml:4:3 KRP320 NodePool/batch metadata.name [prod-eus]",
		"testdata/fleet/clusters/prod-neu/general-limits.yaml:7:3 KRP321 NodePool/general spec.limits [prod-neu]",
	})
	for _, f := range out.Findings {
		switch f.Code {
		case "KRP320":
			if want := "NodePool/batch is in clusters prod-weu, prod-neu of group prod but not in prod-eus"; f.Message != want {
				t.Errorf("KRP320 message %q, want %q", f.Message, want)
			}
			if f.Severity != "note" {
				t.Errorf("KRP320 severity %s", f.Severity)
			}
		case "KRP321":
			if want := "cpu=100, memory=400Gi in prod-neu; cpu=200, memory=800Gi in prod-weu, prod-eus"; !strings.HasSuffix(f.Message, want) {
				t.Errorf("KRP321 message %q, want it to end with %q", f.Message, want)
			}
			if len(f.Related) != 1 || report.PlaceOf(f.Related[0]) != "testdata/fleet/base/general.yaml:20:3" {
				t.Errorf("KRP321 related %+v, want the base's limits", f.Related)
			}
		}
	}
	if fl.Fleet == nil {
		t.Fatal("no fleet object in the JSON report")
	}
	var names []string
	for _, c := range fl.Fleet.Clusters {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "prod-weu,prod-neu,prod-eus,dev" {
		t.Fatalf("fleet clusters %v", names)
	}
	weu, neu, eus, dev := fl.Fleet.Clusters[0], fl.Fleet.Clusters[1], fl.Fleet.Clusters[2], fl.Fleet.Clusters[3]
	if weu.Group != "prod" || dev.Group != "" || weu.Region != "westeurope" || weu.NodePools != 2 || eus.NodePools != 1 || eus.NodeClasses != 1 {
		t.Errorf("rows: %+v / %+v / %+v", weu, eus, dev)
	}
	if weu.Limits.CPU == nil || weu.Limits.CPU.Total != "264" || weu.Limits.CPU.Pools != 2 || weu.Limits.Memory.Total != "800Gi" || weu.Limits.Memory.Pools != 1 {
		t.Errorf("prod-weu limits %+v", weu.Limits)
	}
	if neu.Limits.CPU.Total != "164" || neu.Limits.Memory.Total != "400Gi" {
		t.Errorf("prod-neu limits %+v", neu.Limits)
	}
	if eus.Limits.CPU.Total != "200" { // 200000m, summed by value
		t.Errorf("prod-eus cpu %+v", eus.Limits.CPU)
	}
	if dev.Limits.CPU != nil || !slices.Equal(dev.Limits.PoolsWithoutLimits, []string{"general"}) || len(weu.Limits.PoolsWithoutLimits) != 0 {
		t.Errorf("dev limits %+v, prod-weu %+v", dev.Limits, weu.Limits)
	}
	// The cost at the limits is the sum of the pools' own fact, which the summary also shows.
	var sum float64
	for _, p := range out.Pools {
		if p.Cluster != "prod-weu" {
			continue
		}
		for _, f := range p.Facts {
			if f.Name == "monthly cost at the limits" {
				v, err := strconv.ParseFloat(strings.Fields(f.Value)[1], 64)
				if err != nil {
					t.Fatal(err)
				}
				sum += v
			}
		}
	}
	if weu.CostAtLimits.Pools != 2 || weu.CostAtLimits.MonthlyCost < sum-1 || weu.CostAtLimits.MonthlyCost > sum+1 || weu.CostAtLimits.Scope != "westeurope" {
		t.Errorf("prod-weu cost at limits %+v, pools' facts sum to %v", weu.CostAtLimits, sum)
	}
	if len(weu.CostAtLimits.PriceSources) == 0 || !strings.HasPrefix(weu.CostAtLimits.PriceSources[0], "list 20") {
		t.Errorf("prod-weu price sources %v", weu.CostAtLimits.PriceSources)
	}
	if dev.CostAtLimits.Pools != 0 || !slices.Equal(dev.CostAtLimits.Uncosted, []string{"general"}) {
		t.Errorf("dev cost at limits %+v (a pool without limits has none)", dev.CostAtLimits)
	}
	if weu.Predicted != nil {
		t.Errorf("predicted cost without --workloads: %+v", weu.Predicted)
	}
	// Counts: the KRP320 note counts for the cluster that lacks the pool, KRP321 for the one that differs.
	if eus.Findings.Notes != neu.Findings.Notes || eus.Findings.Notes != weu.Findings.Notes+1 || dev.Findings.Warnings != 1 {
		t.Errorf("counts: weu %+v neu %+v eus %+v dev %+v", weu.Findings, neu.Findings, eus.Findings, dev.Findings)
	}
	if len(fl.Fleet.Groups) != 1 || g0(fl).Name != "prod" || len(g0(fl).Compared) != 3 || !g0(fl).Regional {
		t.Errorf("groups %+v", fl.Fleet.Groups)
	}
}

func g0(fl fleetJSON) struct {
	Name               string
	Clusters, Compared []string
	Regional           bool `json:"regionalSkipped"`
} {
	return fl.Fleet.Groups[0]
}

// The text report has the fleet table: a row per cluster with pools, limits, cost at the limits
// and finding counts, the prices' provenance, and what the group compared.
func TestFleetFixtureText(t *testing.T) {
	r := run(t, "", "--color", "never", "testdata/fleet")
	if r.code != ExitClean {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	i := strings.Index(r.stdout, "\nFleet\n")
	if i < 0 {
		t.Fatalf("no fleet table:\n%s", r.stdout)
	}
	table := strings.Split(r.stdout[i+1:], "\n")
	want := []string{
		"Fleet",
		"  cluster   group  region       pools  cpu limit      memory limit    without limits  at limits/month  errors  warnings  notes",
		"  prod-weu  prod   westeurope   2      264 (2 pools)  800Gi (1 pool)  -               USD ",
		"  prod-neu  prod   northeurope  2      164 (2 pools)  400Gi (1 pool)  -               USD ",
		"  prod-eus  prod   eastus       1      200 (1 pool)   800Gi (1 pool)  -               USD ",
		"  dev       -      westeurope   1      -              -               general         -                0       1         0",
		"  total                                                                               USD ",
		"  at limits: the cheapest cost of each pool filled to its limits (not a prediction); prices: list 20",
		"  group prod: compared prod-weu, prod-neu, prod-eus; regions differ, so zone and region requirements are not compared",
	}
	for j, w := range want {
		if j >= len(table) || !strings.HasPrefix(table[j], w) {
			t.Fatalf("fleet table line %d:\n%s\nwant it to start with:\n%s\ntable:\n%s", j, table[min(j, len(table)-1)], w, strings.Join(table, "\n"))
		}
	}
	if !strings.Contains(r.stdout, "note KRP320 NodePool/batch: NodePool/batch is in clusters prod-weu, prod-neu of group prod but not in prod-eus") {
		t.Errorf("no KRP320 in the text report:\n%s", r.stdout)
	}
}

// With --workloads each row has the predicted cost, Karpenter's and the optimum's, per month,
// and the JSON's monthly figures are the hourly ones × 730.
func TestFleetPredictedCosts(t *testing.T) {
	wl := filepath.Join(t.TempDir(), "web.yaml")
	writeFile(t, wl, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx
          resources: {requests: {cpu: "1", memory: 2Gi}}
`)
	_, fl := fleetReport(t, "--workloads", wl, "testdata/fleet")
	for _, c := range fl.Fleet.Clusters {
		p := c.Predicted
		if p == nil || p.Method != "karpenter" || p.HourlyCost <= 0 || p.OptimalHourlyCost <= 0 || p.OptimalHourlyCost > p.HourlyCost+1e-9 {
			t.Fatalf("%s predicted %+v", c.Name, p)
		}
		if d := p.MonthlyCost - p.HourlyCost*730; d > 0.01 || d < -0.01 {
			t.Errorf("%s monthly %v, hourly %v × 730", c.Name, p.MonthlyCost, p.HourlyCost)
		}
	}
	r := run(t, "", "--color", "never", "--workloads", wl, "testdata/fleet")
	if !strings.Contains(r.stdout, "at limits/month  Karpenter/month  optimum/month  errors") {
		t.Errorf("no predicted columns:\n%s", r.stdout)
	}
}

// One cluster: no fleet object and no table.
func TestFleetNeedsTwoClusters(t *testing.T) {
	_, fl := fleetReport(t, "testdata/single/nodeclass.yaml")
	if fl.Fleet != nil {
		t.Errorf("fleet for one cluster: %+v", fl.Fleet)
	}
	r := run(t, "", "testdata/single/nodeclass.yaml")
	if strings.Contains(r.stdout, "\nFleet\n") {
		t.Errorf("fleet table for one cluster:\n%s", r.stdout)
	}
}

// The fixture fleet's SARIF log validates, and its KRP32x results carry the cluster.
func TestFleetSARIF(t *testing.T) {
	r := run(t, "", "--format", "sarif", "testdata/fleet")
	if r.code != ExitClean {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if err := validateSARIF(t, compileSARIFSchema(t), r.stdout); err != nil {
		t.Fatalf("SARIF does not validate: %v", err)
	}
	var log report.SarifLog
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, res := range log.Runs[0].Results {
		if strings.HasPrefix(res.RuleID, "KRP32") {
			n++
			if res.Properties["cluster"] == "" || res.Level != "note" || res.Locations[0].PhysicalLocation.Region == nil {
				t.Errorf("result %+v", res)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d KRP32x results, want 2", n)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeFleet writes a config and one file per cluster into a new directory.
func writeFleetTree(t *testing.T, config string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ".karpenter-review.yaml"), config)
	for p, text := range files {
		writeFile(t, filepath.Join(dir, p), text)
	}
	return dir
}

// The guide's example output is what the review prints for examples/review/fleet: every line
// of it is a line of the real report.
func TestFleetGuideExample(t *testing.T) {
	guide, err := os.ReadFile("../../../templates/guides/review-fleet.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	text := string(guide)
	i := strings.Index(text, "## What the review prints")
	j := strings.Index(text[i:], "```\n")
	k := strings.Index(text[i+j+4:], "```")
	block := text[i+j+4 : i+j+4+k]
	r := run(t, "", "--color", "never", "../../../examples/review/fleet")
	if r.code != ExitClean {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.ReplaceAll(r.stdout, root+string(filepath.Separator), ""), "\n")
	for _, l := range strings.Split(strings.TrimSpace(block), "\n") {
		if l != "" && !slices.Contains(lines, l) {
			t.Errorf("the guide shows a line the review does not print:\n%s\nreport:\n%s", l, strings.Join(lines, "\n"))
		}
	}
}

// Cluster names come from the config file, which a pull request can change: in the fleet
// table a name cannot forge a GitHub Actions workflow command or repaint the terminal.
func TestFleetTableEscapesNames(t *testing.T) {
	cfg := "clusters:\n  - {name: \"::error file=x::forged\", region: westeurope, paths: [a]}\n  - {name: \"b\\e[31m\", region: westeurope, paths: [b]}\n"
	pool := poolYAML(basePool)
	dir := writeFleetTree(t, cfg, map[string]string{"a/p.yaml": pool, "b/p.yaml": pool})
	r := run(t, "", "--color", "never", dir)
	if r.code == ExitUsage {
		t.Fatal(r.stderr)
	}
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "::") || strings.Contains(l, "\x1b") {
			t.Errorf("unescaped line %q", l)
		}
	}
	if !strings.Contains(r.stdout, `  "::error file=x::forged"  `) || !strings.Contains(r.stdout, `  b\x1b[31m  `) {
		t.Errorf("fleet table:\n%s", r.stdout)
	}
}

// A plan with two provider configurations is two clusters without any config file: the fleet
// table has a row for each, in its provider's region.
func TestFleetOfPlanWithProviderAliases(t *testing.T) {
	plan := realPlan(t, filepath.Join("testdata", "plan-aliases"))
	_, fl := fleetReport(t, plan)
	if fl.Fleet == nil {
		t.Fatal("no fleet object")
	}
	var rows []string
	for _, c := range fl.Fleet.Clusters {
		rows = append(rows, c.Name+"@"+c.Region+":"+strconv.Itoa(c.NodePools))
	}
	if got := strings.Join(rows, ","); got != "karpenter@westeurope:1,karpenter.east@eastus:2" {
		t.Errorf("fleet rows %s", got)
	}
	if east := fl.Fleet.Clusters[1]; east.Findings.Warnings == 0 {
		t.Errorf("karpenter.east counts %+v, want its KRP110 warnings", east.Findings)
	}
}

// The guide's JSON example is the real row of prod-eus: the same fields, and the same values
// except the predicted costs (which the emulation decides; their fields are checked).
func TestFleetGuideJSON(t *testing.T) {
	guide, err := os.ReadFile("../../../templates/guides/review-fleet.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	text := string(guide)
	i := strings.Index(text, "```json\n")
	k := strings.Index(text[i+8:], "```")
	var shown struct {
		Fleet struct {
			Clusters []map[string]any `json:"clusters"`
			Groups   []map[string]any `json:"groups"`
		} `json:"fleet"`
	}
	if err := json.Unmarshal([]byte("{"+text[i+8:i+8+k]+"}"), &shown); err != nil {
		t.Fatalf("the guide's JSON: %v", err)
	}
	r := run(t, "", "--format", "json", "--workloads", "../../../examples/review/fleet-apps", "../../../examples/review/fleet")
	var real struct {
		Fleet struct {
			Clusters []map[string]any `json:"clusters"`
			Groups   []map[string]any `json:"groups"`
		} `json:"fleet"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &real); err != nil {
		t.Fatal(err)
	}
	row := shown.Fleet.Clusters[0]
	var got map[string]any
	for _, c := range real.Fleet.Clusters {
		if c["name"] == row["name"] {
			got = c
		}
	}
	if got == nil {
		t.Fatalf("no cluster %v in the report", row["name"])
	}
	for k := range got {
		if _, ok := row[k]; !ok {
			t.Errorf("the guide's row lacks %q", k)
		}
	}
	for k, v := range row {
		if k == "predicted" {
			for pk := range got[k].(map[string]any) {
				if _, ok := v.(map[string]any)[pk]; !ok {
					t.Errorf("the guide's predicted lacks %q", pk)
				}
			}
			continue
		}
		if a, b := fleet.CanonicalJSON(v), fleet.CanonicalJSON(got[k]); a != b {
			t.Errorf("%s: the guide shows %s, the review writes %s", k, a, b)
		}
	}
	if a, b := fleet.CanonicalJSON(shown.Fleet.Groups), fleet.CanonicalJSON(real.Fleet.Groups); a != b {
		t.Errorf("groups: the guide shows %s, the review writes %s", a, b)
	}
}
