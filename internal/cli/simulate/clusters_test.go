package simulate

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A config that maps paths to clusters simulates each cluster in its own region with its own
// pools and workloads; the top-level figures are the clusters' sums.
func TestSimulateClustersFromConfig(t *testing.T) {
	dir := t.TempDir()
	pools, err := os.ReadFile("testdata/shop/pools.yaml")
	if err != nil {
		t.Fatal(err)
	}
	app := func(replicas string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: ` + replicas + `
  template:
    spec:
      containers: [{name: api, resources: {requests: {cpu: "1", memory: 2Gi}}}]
`
	}
	for name, text := range map[string]string{
		".karpenter-review.yaml": "clusters:\n  - {name: prod, region: westeurope, paths: [\"prod/**\"]}\n  - {name: dev, region: eastus, paths: [\"dev/**\"]}\n",
		"prod/pools.yaml":        string(pools),
		"prod/app.yaml":          app("8"),
		"dev/pools.yaml":         string(pools),
		"dev/app.yaml":           app("2"),
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := run(t, "", "--mode", "optimal", "--format", "json", dir)
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r := decode(t, out)
	if len(r.Clusters) != 2 || r.Clusters[0].Name != "prod" || r.Clusters[0].Region != "westeurope" || r.Clusters[1].Region != "eastus" {
		t.Fatalf("clusters = %+v", r.Clusters)
	}
	if r.Clusters[0].Workloads[0].Replicas != 8 || r.Clusters[1].Workloads[0].Replicas != 2 || r.Optimal.ScheduledPods != 10 {
		t.Errorf("workloads %+v %+v, scheduled %d", r.Clusters[0].Workloads, r.Clusters[1].Workloads, r.Optimal.ScheduledPods)
	}
	perNode := map[string]int{}
	for _, n := range r.Optimal.Nodes {
		perNode[n.Cluster] += n.Pods
	}
	if perNode["prod"] != 8 || perNode["dev"] != 2 {
		t.Errorf("pods per cluster = %v", perNode)
	}
	var sum float64
	for _, p := range r.Optimal.PoolCosts {
		sum += p.HourlyCost
	}
	if math.Abs(sum-r.Optimal.HourlyCost) > 1e-5 {
		t.Errorf("pool costs sum to %v, hourlyCost %v", sum, r.Optimal.HourlyCost)
	}
	if !strings.Contains(out, `"name": "dev"`) {
		t.Error("dev cluster missing")
	}
}

// Workloads no cluster of the config maps run in every cluster, as review --workloads counts
// them: no "(unnamed)" cluster of workloads alone is simulated (which failed without --region,
// and with it reported 0 pools and a reason that was not true).
func TestUnmappedWorkloadsRunInEveryCluster(t *testing.T) {
	dir := t.TempDir()
	pools, err := os.ReadFile("testdata/shop/pools.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		".karpenter-review.yaml": "clusters:\n  - {name: prod, region: westeurope, paths: [\"prod/**\"]}\n  - {name: dev, region: eastus, paths: [\"dev/**\"]}\n",
		"prod/pools.yaml":        string(pools),
		"dev/pools.yaml":         string(pools),
		"apps/app.yaml":          deployment("shared", 3, "1", ""),
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := run(t, "", "--format", "json", dir)
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r := decode(t, out)
	if len(r.Clusters) != 2 {
		t.Fatalf("clusters = %+v", r.Clusters)
	}
	for _, c := range r.Clusters {
		if c.Name == "" || len(c.Workloads) != 1 || c.Workloads[0].Object != "Deployment/shared" || len(c.Pools) == 0 {
			t.Errorf("cluster %q: workloads %+v, pools %v", c.Name, c.Workloads, c.Pools)
		}
	}
	if r.Karpenter.ScheduledPods != 6 {
		t.Errorf("scheduled %d pods, want 3 in each cluster", r.Karpenter.ScheduledPods)
	}
}
