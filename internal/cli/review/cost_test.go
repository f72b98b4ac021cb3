package review

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const costPool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: %NAME%
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [%FAMILY%]}
---
apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata:
  name: default
spec: {}
`

const costApp = `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: %REPLICAS%
  template:
    metadata: {labels: {app: api}}
    spec:
      containers: [{name: api, resources: {requests: {cpu: "1", memory: 2Gi}}}]
`

func writeCheckout(t *testing.T, dir, pool, family, replicas string) {
	t.Helper()
	for name, text := range map[string]string{
		"pools/pool.yaml": strings.NewReplacer("%NAME%", pool, "%FAMILY%", family).Replace(costPool),
		"apps/api.yaml":   strings.ReplaceAll(costApp, "%REPLICAS%", replicas),
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type costJSON struct {
	Costs []struct {
		Cluster, Method    string
		Region             string
		HourlyCost         float64  `json:"hourlyCost"`
		OptimalHourlyCost  float64  `json:"optimalHourlyCost"`
		LowerBound         float64  `json:"lowerBound"`
		BaselineHourlyCost *float64 `json:"baselineHourlyCost"`
		Pools              []struct {
			Pool               string
			Nodes              int
			HourlyCost         float64  `json:"hourlyCost"`
			BaselineNodes      *int     `json:"baselineNodes"`
			BaselineHourlyCost *float64 `json:"baselineHourlyCost"`
			Delta              *float64 `json:"delta"`
		}
		Notes []string
	} `json:"costs"`
}

// review --workloads adds each cluster's predicted cost; --baseline the cost before the
// change, per pool: a pool renamed shows up on both sides, the other at zero.
func TestReviewWorkloadsAndBaseline(t *testing.T) {
	root := t.TempDir()
	writeCheckout(t, filepath.Join(root, "head"), "general", "D", "6")
	writeCheckout(t, filepath.Join(root, "base"), "old", "D", "3")
	t.Chdir(filepath.Join(root, "head"))

	r := run(t, "", "--format", "json", "--region", "westeurope", "--workloads", "apps", "pools")
	if r.code != ExitClean {
		t.Fatalf("exit %d: %s %s", r.code, r.stderr, r.stdout)
	}
	var only costJSON
	if err := json.Unmarshal([]byte(r.stdout), &only); err != nil || len(only.Costs) != 1 {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	c := only.Costs[0]
	if c.Method != "karpenter" || c.HourlyCost <= 0 || c.LowerBound <= 0 || c.LowerBound > c.OptimalHourlyCost+1e-9 || c.OptimalHourlyCost > c.HourlyCost+1e-9 || c.BaselineHourlyCost != nil ||
		len(c.Pools) != 1 || c.Pools[0].Pool != "general" || c.Pools[0].HourlyCost != c.HourlyCost {
		t.Fatalf("cost = %+v", c)
	}

	r = run(t, "", "--format", "json", "--region", "westeurope", "--workloads", "apps", "--baseline", "../base", "pools")
	if r.code != ExitClean {
		t.Fatalf("exit %d: %s %s", r.code, r.stderr, r.stdout)
	}
	var cmp costJSON
	if err := json.Unmarshal([]byte(r.stdout), &cmp); err != nil {
		t.Fatal(err)
	}
	c = cmp.Costs[0]
	if c.BaselineHourlyCost == nil || *c.BaselineHourlyCost <= 0 || *c.BaselineHourlyCost >= c.HourlyCost {
		t.Fatalf("baseline (3 replicas) should cost less than head (6): %+v", c)
	}
	pools := map[string]float64{}
	for _, p := range c.Pools {
		if p.Delta == nil || math.Abs(*p.Delta-(p.HourlyCost-*p.BaselineHourlyCost)) > 1e-6 {
			t.Errorf("pool %+v", p)
		}
		pools[p.Pool] = *p.Delta
	}
	if len(pools) != 2 || pools["general"] != c.HourlyCost || pools["old"] != -*c.BaselineHourlyCost {
		t.Errorf("per-pool deltas = %v (head %v, baseline %v)", pools, c.HourlyCost, *c.BaselineHourlyCost)
	}

	// A workload path that is also reviewed counts its workloads once.
	again := run(t, "", "--format", "json", "--region", "westeurope", "--workloads", "apps", "pools", "apps")
	var twice costJSON
	if err := json.Unmarshal([]byte(again.stdout), &twice); err != nil || twice.Costs[0].HourlyCost != only.Costs[0].HourlyCost {
		t.Errorf("apps reviewed and read as workloads: %v %+v, want cost %v", err, twice.Costs, only.Costs[0].HourlyCost)
	}
	if strings.Contains(again.stdout, `"KRP008"`) {
		t.Errorf("the same document read twice is reported as defined twice:\n%s", again.stdout)
	}

	// --hpa-max: an HPA's maxReplicas, the cost at peak.
	hpa := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: api}\nspec:\n  scaleTargetRef: {kind: Deployment, name: api}\n  maxReplicas: 12\n"
	if err := os.WriteFile(filepath.Join(root, "head", "apps", "hpa.yaml"), []byte(hpa), 0o644); err != nil {
		t.Fatal(err)
	}
	var peak, asWritten costJSON
	for _, x := range []struct {
		out  *costJSON
		args []string
	}{{&peak, []string{"--hpa-max"}}, {&asWritten, nil}} {
		r := run(t, "", append([]string{"--format", "json", "--region", "westeurope", "--workloads", "apps", "pools"}, x.args...)...)
		if err := json.Unmarshal([]byte(r.stdout), x.out); err != nil {
			t.Fatal(err)
		}
	}
	if asWritten.Costs[0].HourlyCost != only.Costs[0].HourlyCost || peak.Costs[0].HourlyCost <= asWritten.Costs[0].HourlyCost {
		t.Errorf("--hpa-max cost %v, as written %v (before the HPA %v)", peak.Costs[0].HourlyCost, asWritten.Costs[0].HourlyCost, only.Costs[0].HourlyCost)
	}

	text := run(t, "", "--region", "westeurope", "--workloads", "apps", "--baseline", "../base", "pools")
	if !strings.Contains(text.stdout, "Predicted cost of cluster (unnamed) (karpenter): USD ") || !strings.Contains(text.stdout, ", change USD +") {
		t.Errorf("text report:\n%s", text.stdout)
	}
}

// Workload findings join the review's, with its exit code and suppressions.
func TestReviewWorkloadFindings(t *testing.T) {
	root := t.TempDir()
	writeCheckout(t, root, "general", "D", "yes")
	t.Chdir(root)
	out := runJSON(t, "", ExitFindings, "--region", "westeurope", "--workloads", "apps", "pools")
	found := false
	for _, b := range out.brief() {
		found = found || strings.HasPrefix(b, "apps/api.yaml:5 KRP301 Deployment/api spec.replicas")
	}
	if !found {
		t.Errorf("findings = %v", out.brief())
	}
	runJSON(t, "", ExitClean, "--region", "westeurope", "--workloads", "apps", "--suppress", "KRP301", "pools")
	if r := run(t, "", "--workloads", "-", "-"); r.code != ExitUsage {
		t.Errorf("stdin twice: exit %d", r.code)
	}
	if r := run(t, "", "--baseline", "missing", "--workloads", "apps", "pools"); r.code != ExitUsage {
		t.Errorf("missing baseline: exit %d", r.code)
	}
}

// Pools from a real Terraform plan: the cluster is priced in the region of the plan's
// provider configuration, a pool with a value known only after apply is left out and said so.
func TestReviewWorkloadsOnPlan(t *testing.T) {
	plan := realPlan(t, filepath.Join("testdata", "plan"))
	apps := filepath.Join(t.TempDir(), "apps.yaml")
	if err := os.WriteFile(apps, []byte(strings.ReplaceAll(costApp, "%REPLICAS%", "4")), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", "--format", "json", "--workloads", apps, plan)
	if r.code != ExitFindings { // the plan's own findings (KRP201)
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var out costJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || len(out.Costs) != 1 {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	c := out.Costs[0]
	pools := map[string]int{}
	for _, p := range c.Pools {
		pools[p.Pool] = p.Nodes
	}
	if c.Region != "northeurope" || c.HourlyCost <= 0 || pools["general"]+pools["batch"] == 0 {
		t.Errorf("cost %+v", c)
	}
	if _, ok := pools["late"]; ok || !strings.Contains(strings.Join(c.Notes, "\n"), "NodePool/late is left out: values known only after apply") {
		t.Errorf("late pool: pools %v, notes %v", pools, c.Notes)
	}
}

// Workloads the config maps to a cluster whose pools are not reviewed are reported, not dropped.
func TestReviewWorkloadsOfAClusterWithoutPools(t *testing.T) {
	root := t.TempDir()
	writeCheckout(t, root, "general", "D", "2")
	if err := os.WriteFile(filepath.Join(root, ".karpenter-review.yaml"), []byte("clusters:\n  - {name: prod, region: westeurope, paths: [\"apps/**\"]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	r := run(t, "", "--format", "json", "--region", "westeurope", "--workloads", "apps", "pools")
	var out costJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	if len(out.Costs) != 2 || out.Costs[1].Cluster != "prod" || !strings.Contains(strings.Join(out.Costs[1].Notes, ""), "none of the reviewed paths holds its NodePools") {
		t.Errorf("costs = %+v", out.Costs)
	}
}

// Workloads no cluster of the config maps run in every cluster, on top of the cluster's own (the
// rule simulate follows too): prod's 2 own pods and the 3 shared make 5, dev has the 3 shared.
func TestReviewWorkloadsSharedByEveryCluster(t *testing.T) {
	root := t.TempDir()
	writeCheckout(t, filepath.Join(root, "prod"), "general", "D", "2")
	writeCheckout(t, filepath.Join(root, "dev"), "general", "D", "0")
	shared := strings.ReplaceAll(strings.ReplaceAll(costApp, "%REPLICAS%", "3"), "name: api", "name: shared")
	if err := os.MkdirAll(filepath.Join(root, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "shared", "shared.yaml"), []byte(shared), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".karpenter-review.yaml"), []byte("clusters:\n  - {name: prod, region: westeurope, paths: [\"prod/**\"]}\n  - {name: dev, region: westeurope, paths: [\"dev/**\"]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	r := run(t, "", "--format", "json", "--workloads", "shared", "prod", "dev")
	var out costJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	cost := map[string]float64{}
	for _, c := range out.Costs {
		cost[c.Cluster] = c.HourlyCost
	}
	if len(out.Costs) != 2 || cost["dev"] <= 0 || cost["prod"] <= cost["dev"] {
		t.Errorf("costs = %+v: prod runs its own pods and the shared ones, dev the shared ones", out.Costs)
	}
}
