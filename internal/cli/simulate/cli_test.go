package simulate

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simreport"
)

// run runs the command as main does and returns its exit code, standard output and error.
func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(context.Background(), args, strings.NewReader(stdin), &out, &errOut, "test")
	return code, out.String(), errOut.String()
}

// report is the JSON layout as a consumer reads it: the field names are the contract.
type report struct {
	Version   int     `json:"version"`
	Mode      string  `json:"mode"`
	Karpenter *sim    `json:"karpenter"`
	Optimal   *sim    `json:"optimal"`
	Lower     float64 `json:"lowerBound"`
	Clusters  []struct {
		Name      string   `json:"name"`
		Region    string   `json:"region"`
		Pools     []string `json:"pools"`
		Workloads []struct {
			Object       string            `json:"object"`
			Replicas     int               `json:"replicas"`
			ReplicasFrom string            `json:"replicasFrom"`
			Requests     map[string]string `json:"requests"`
		} `json:"workloads"`
	} `json:"clusters"`
	Findings []struct {
		Code     string `json:"code"`
		Severity string `json:"severity"`
		File     string `json:"file"`
		Line     int    `json:"line"`
		Field    string `json:"field"`
		Object   string `json:"object"`
		Message  string `json:"message"`
	} `json:"findings"`
}

type sim struct {
	Nodes []struct {
		Cluster      string         `json:"cluster"`
		Pool         string         `json:"pool"`
		InstanceType string         `json:"instanceType"`
		CapacityType string         `json:"capacityType"`
		Zone         string         `json:"zone"`
		Pods         int            `json:"pods"`
		Workloads    map[string]int `json:"workloads"`
		HourlyPrice  float64        `json:"hourlyPrice"`
	} `json:"nodes"`
	HourlyCost    float64 `json:"hourlyCost"`
	ScheduledPods int     `json:"scheduledPods"`
	Unschedulable []struct {
		Workload string `json:"workload"`
		Count    int    `json:"count"`
		Reason   string `json:"reason"`
	} `json:"unschedulable"`
	PoolCosts []struct {
		Pool       string  `json:"pool"`
		Nodes      int     `json:"nodes"`
		HourlyCost float64 `json:"hourlyCost"`
	} `json:"poolCosts"`
}

func decode(t *testing.T, out string) report {
	t.Helper()
	var r report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return r
}

// A directory with pools and workloads: every pod is placed, each on a pool it may use, the
// costs add up, and the findings point at their lines.
func TestSimulateDirectoryJSON(t *testing.T) {
	code, out, errOut := run(t, "", "--region", "westeurope", "--mode", "optimal", "--format", "json", "testdata/shop")
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r := decode(t, out)
	if r.Version != 1 || r.Mode != "optimal" || r.Karpenter != nil || r.Optimal == nil {
		t.Fatalf("header: version %d mode %q karpenter %v optimal %v", r.Version, r.Mode, r.Karpenter, r.Optimal)
	}
	// web 6, db 3, one run of report 4 (parallelism), sidecar-less 1; the DaemonSet is overhead.
	if r.Optimal.ScheduledPods != 14 || len(r.Optimal.Unschedulable) != 0 {
		t.Fatalf("scheduled %d, unschedulable %+v", r.Optimal.ScheduledPods, r.Optimal.Unschedulable)
	}
	sum := 0.0
	for _, n := range r.Optimal.Nodes {
		if n.Pool == "" || n.InstanceType == "" || n.CapacityType == "" || n.Zone == "" || n.Pods == 0 || n.HourlyPrice <= 0 {
			t.Errorf("incomplete node %+v", n)
		}
		sum += n.HourlyPrice
		for w := range n.Workloads {
			// report tolerates the batch taint and selects the batch pool; nothing else tolerates it.
			if (w == "CronJob/report") != (n.Pool == "batch") {
				t.Errorf("%s on pool %s", w, n.Pool)
			}
		}
	}
	if math.Abs(sum-r.Optimal.HourlyCost) > 1e-5 {
		t.Errorf("hourlyCost %v, nodes sum to %v", r.Optimal.HourlyCost, sum)
	}
	if r.Lower <= 0 || r.Lower > r.Optimal.HourlyCost+1e-9 {
		t.Errorf("lowerBound %v against cost %v", r.Lower, r.Optimal.HourlyCost)
	}
	if len(r.Optimal.PoolCosts) != 2 || r.Optimal.PoolCosts[0].Pool != "general" {
		t.Errorf("poolCosts = %+v", r.Optimal.PoolCosts)
	}
	reqs := map[string]map[string]string{}
	for _, w := range r.Clusters[0].Workloads {
		reqs[w.Object] = w.Requests
	}
	// The sidecar (a restartable init container) adds to the containers; limits stand in for requests.
	if reqs["Deployment/web"]["cpu"] != "1100m" || reqs["CronJob/report"]["memory"] != "4Gi" || reqs["DaemonSet/log-agent"]["cpu"] != "200m" {
		t.Errorf("requests = %v", reqs)
	}
	got := map[string]string{}
	for _, f := range r.Findings {
		got[f.Code] = filepath.ToSlash(f.File) + ":" + strconv.Itoa(f.Line) + " " + f.Object
		// KRP302 names the pool whose nodes are sized without the missing requests.
		if f.Code == "KRP302" && !strings.HasSuffix(f.Message, "(the optimal packing puts them on NodePool/general)") {
			t.Errorf("KRP302 message %q does not name the pool", f.Message)
		}
	}
	want := map[string]string{
		"KRP302": "testdata/shop/workloads/jobs.yaml:44 Deployment/sidecar-less",
		"KRP303": "testdata/shop/workloads/jobs.yaml:24 Rollout/canary",
		// A single replica, no PodDisruptionBudget, on the default pool that consolidates.
		"KRP412": "testdata/shop/workloads/jobs.yaml:37 Deployment/sidecar-less",
	}
	for c, w := range want {
		if got[c] != w {
			t.Errorf("%s at %q, want %q", c, got[c], w)
		}
	}
	if len(r.Findings) != len(want) {
		t.Errorf("findings = %+v", r.Findings)
	}
}

// --hpa-max counts a workload an HPA scales at maxReplicas.
func TestSimulateHPAMax(t *testing.T) {
	code, out, errOut := run(t, "", "testdata/shop", "--hpa-max", "--region", "westeurope", "--mode", "optimal", "--format", "json")
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r := decode(t, out)
	for _, w := range r.Clusters[0].Workloads {
		if w.Object == "Deployment/web" && (w.Replicas != 12 || w.ReplicasFrom != "HorizontalPodAutoscaler/web maxReplicas") {
			t.Errorf("web: %d from %q", w.Replicas, w.ReplicasFrom)
		}
	}
	if r.Optimal.ScheduledPods != 20 {
		t.Errorf("scheduled %d, want 20", r.Optimal.ScheduledPods)
	}
}

// A Kustomize overlay's strategic-merge patch changes the workload as Kustomize would:
// containers merge by name.
func TestSimulateKustomizeOverlay(t *testing.T) {
	code, out, errOut := run(t, "", "--region", "westeurope", "--mode", "optimal", "--format", "json", "testdata/overlay/prod")
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	r := decode(t, out)
	w := r.Clusters[0].Workloads
	if len(w) != 1 || w[0].Replicas != 5 || w[0].Requests["cpu"] != "2100m" || w[0].Requests["memory"] != "4160Mi" {
		t.Fatalf("workloads = %+v", w)
	}
	if strings.Contains(out, "matches no object") {
		t.Error("the applied patch is still reported as matching nothing")
	}
}

// Helm output on standard input, with the pools from a file.
func TestSimulateStdin(t *testing.T) {
	helm := `---
# Source: web/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: release-web
spec:
  replicas: 4
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          resources: {requests: {cpu: "1", memory: 1Gi}}
`
	code, out, errOut := run(t, helm, "--region", "westeurope", "--mode", "optimal", "--format", "json", "testdata/shop/pools.yaml", "-")
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if r := decode(t, out); r.Optimal.ScheduledPods != 4 {
		t.Fatalf("scheduled %d", r.Optimal.ScheduledPods)
	}
}

// A malformed workload is an error finding (exit 1), the rest is still simulated.
func TestSimulateMalformedWorkload(t *testing.T) {
	dir := t.TempDir()
	pools, err := os.ReadFile("testdata/shop/pools.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := `apiVersion: apps/v1
kind: Deployment
metadata: {name: bad}
spec:
  template:
    spec:
      nodeSelector:
        ssd: yes
      containers: [{name: a}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: good}
spec:
  template:
    spec:
      containers: [{name: a, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: broken
`
	write(t, filepath.Join(dir, "pools.yaml"), string(pools))
	write(t, filepath.Join(dir, "apps.yaml"), bad)
	code, out, _ := run(t, "", "--region", "westeurope", "--mode", "optimal", "--format", "json", dir)
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d\n%s", code, ExitFindings, out)
	}
	r := decode(t, out)
	codes := map[string]int{}
	for _, f := range r.Findings {
		codes[f.Code] = f.Line
	}
	if codes["KRP301"] != 8 || codes["KRP005"] == 0 {
		t.Errorf("findings = %+v", r.Findings)
	}
	if r.Optimal.ScheduledPods != 1 {
		t.Errorf("scheduled %d, want the good one", r.Optimal.ScheduledPods)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Karpenter's mode is the default: its nodes (one per NodeClaim) hold every pod but those its
// limits hold back this round, each priced, and --mode both reports the two side by side with the lower bound
// below both.
func TestSimulateKarpenterAndBoth(t *testing.T) {
	code, out, errOut := run(t, "", "--region", "westeurope", "--format", "json", "testdata/shop")
	if code != ExitClean {
		t.Fatalf("default mode: exit %d: %s", code, errOut)
	}
	r := decode(t, out)
	if r.Mode != "karpenter" || r.Karpenter == nil || r.Optimal != nil {
		t.Fatalf("default mode %q: karpenter %v optimal %v", r.Mode, r.Karpenter, r.Optimal)
	}
	// The web Deployment spreads over westeurope's four placements (three zones, assumed for
	// every size, and the regional one), so pool general needs a NodeClaim per placement, and
	// Karpenter charges each against the 200 vCPU limit with the largest D size it may still
	// become (192 vCPU): the third exceeds the limits, and 4 web pods wait for a later round.
	// Karpenter's own scheduler on the same input leaves the same 4 (benchcmp TestCompareUpstream
	// with SCENARIOS pointing at this directory).
	if u := r.Karpenter.Unschedulable; r.Karpenter.ScheduledPods != 10 || len(u) != 1 || u[0].Workload != "Deployment/web" || u[0].Count != 4 ||
		!strings.Contains(u[0].Reason, "exceed limits") || !strings.Contains(u[0].Reason, "a later round") || len(r.Karpenter.Nodes) == 0 {
		t.Fatalf("karpenter: %d pods on %d nodes, unschedulable %+v", r.Karpenter.ScheduledPods, len(r.Karpenter.Nodes), r.Karpenter.Unschedulable)
	}
	sum := 0.0
	for _, n := range r.Karpenter.Nodes {
		if n.InstanceType == "" || n.HourlyPrice <= 0 || (n.CapacityType != "spot" && n.CapacityType != "on-demand") {
			t.Errorf("node %+v", n)
		}
		sum += n.HourlyPrice
	}
	if math.Abs(sum-r.Karpenter.HourlyCost) > 1e-6 {
		t.Errorf("nodes add up to %v, hourlyCost %v", sum, r.Karpenter.HourlyCost)
	}
	code, out, errOut = run(t, "", "--region", "westeurope", "--mode", "both", "--format", "json", "testdata/shop")
	if code != ExitClean {
		t.Fatalf("both: exit %d: %s", code, errOut)
	}
	b := decode(t, out)
	if b.Karpenter == nil || b.Optimal == nil || b.Karpenter.HourlyCost != r.Karpenter.HourlyCost {
		t.Fatalf("both: karpenter %v optimal %v", b.Karpenter, b.Optimal)
	}
	if b.Lower <= 0 || b.Lower > b.Optimal.HourlyCost+1e-9 || b.Lower > b.Karpenter.HourlyCost+1e-9 {
		t.Errorf("lower bound %v, optimal %v, karpenter %v", b.Lower, b.Optimal.HourlyCost, b.Karpenter.HourlyCost)
	}
}

func TestSimulateUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--mode", "cheapest", "testdata/shop"},
		{"--format", "sarif", "testdata/shop"},
		{"--mode", "optimal", "testdata/shop"}, // no region
		{"--mode", "optimal", "--region", "westeurope", "testdata/missing"},
		{"-", "-"},
	} {
		if code, _, errOut := run(t, "", args...); code != ExitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// Text for a person: a table per pool; markdown for a pull request: tables, cells escaped.
func TestSimulateTextAndMarkdown(t *testing.T) {
	_, text, _ := run(t, "", "--region", "westeurope", "--mode", "optimal", "testdata/shop")
	for _, want := range []string{"NodePool general:", "NodePool batch:", "INSTANCE TYPE", "lower bound: USD ", "jobs.yaml:44: warning KRP302",
		"Deployment/web", "cpu 1100m, memory 2176Mi", "one run: spec.jobTemplate.spec.parallelism", "DaemonSet/log-agent", "per node"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	_, mdOut, _ := run(t, "", "--region", "westeurope", "--mode", "optimal", "--format", "markdown", "testdata/shop")
	for _, want := range []string{"### Karpenter simulation", "| Cluster | Region | Mode |", "| general | Standard_", "| warning | KRP302 |"} {
		if !strings.Contains(mdOut, want) {
			t.Errorf("markdown lacks %q:\n%s", want, mdOut)
		}
	}
	if got := md("a|b<script>`x`\nc"); got != `a\|b&lt;script&gt;'x' c` {
		t.Errorf("md = %q", got)
	}
}

// The simulation's own findings (workloads, disruption checks) get review's --suppress and
// --strict: KRP302 is dropped by --suppress, and --strict makes it an error that fails the run.
func TestSimulateSuppressAndStrict(t *testing.T) {
	codes := func(out string) map[string]string {
		got := map[string]string{}
		for _, f := range decode(t, out).Findings {
			got[f.Code] = f.Severity
		}
		return got
	}
	code, out, errOut := run(t, "", "--region", "westeurope", "--mode", "optimal", "--format", "json", "--suppress", "KRP302", "testdata/shop")
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := codes(out); got["KRP302"] != "" || got["KRP412"] != "note" {
		t.Errorf("with --suppress KRP302: %v", got)
	}
	code, out, _ = run(t, "", "--region", "westeurope", "--mode", "optimal", "--format", "json", "--strict", "testdata/shop")
	if got := codes(out); code != ExitFindings || got["KRP302"] != "error" {
		t.Errorf("with --strict: exit %d, %v", code, got)
	}
}

// One node is "1 node", in text and markdown.
func TestNodeCountIsSingularForOne(t *testing.T) {
	for n, want := range map[int]string{0: "0 nodes", 1: "1 node", 2: "2 nodes"} {
		if got := simreport.NodeCount(n); got != want {
			t.Errorf("simreport.NodeCount(%d) = %q, want %q", n, got, want)
		}
	}
	_, text, _ := run(t, "", "--region", "westeurope", "--mode", "optimal", "testdata/shop")
	if strings.Contains(text, " 1 nodes") {
		t.Errorf("text says \"1 nodes\":\n%s", text)
	}
}
