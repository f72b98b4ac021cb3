package simulate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

const wideExample = "../../../examples/simulate/wide"

// The guide's numbers (templates/guides/what-will-karpenter-launch.md.tmpl): the test fails
// when the emulation, the optimum or the catalog moves them, so the guide cannot drift.
const (
	guideKarpenter = 152.791
	guideAdvised   = 44.058
	guideSpot      = 28.235778
	// guidePending are the pods Karpenter's first round leaves pending on the wide pool: each
	// new NodeClaim is charged the largest size it may still become against the 2,000 vCPU
	// limit (the comparator's Karpenter run on the same input leaves the same pods).
	guidePending = 332
)

func simulateBoth(t *testing.T, paths ...string) *Report {
	t.Helper()
	rep, err := Simulate(context.Background(), Options{Paths: paths, Region: "westeurope", Mode: simulation.Both})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Clusters) != 1 {
		t.Fatalf("clusters = %d", len(rep.Clusters))
	}
	return rep
}

// withRequirement copies the wide example (node class, pool, workloads) into a directory of the test's with line added
// under the pool's requirements, and extra appended to the workloads.
func withRequirement(t *testing.T, line, extra string) string {
	t.Helper()
	dir := t.TempDir()
	pool, err := os.ReadFile(filepath.Join(wideExample, "nodepool.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	wl, err := os.ReadFile(filepath.Join(wideExample, "workloads.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p := string(pool)
	if line != "" {
		p = strings.Replace(p, "      requirements:\n", "      requirements:\n        "+line+"\n", 1)
	}
	nc, err := os.ReadFile(filepath.Join(wideExample, "nodeclass.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"nodeclass.yaml": string(nc), "nodepool.yaml": p, "workloads.yaml": string(wl) + extra} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// On the wide on-demand pool Karpenter's few huge nodes cost far above the optimum and its first
// round leaves pods pending at the limits: the advice is a sku-cpu cap, on the pool's
// requirements, and re-running the whole simulation with the advised requirement written into
// the NodePool gives Karpenter the cost the advice reports with no pod pending. Allowing spot is
// cheaper but leaves the pods pending the cap schedules, so it is neither the advice nor given
// beside it.
func TestAdviceWidePool(t *testing.T) {
	rep := simulateBoth(t, wideExample)
	c := rep.Clusters[0]
	a := c.Advice
	if a == nil {
		t.Fatalf("no advice: karpenter %v, optimal %v", c.Result.Karpenter.HourlyCost, c.Result.Optimal.HourlyCost)
	}
	pending := 0
	for _, u := range c.Result.Karpenter.Unschedulable {
		pending += u.Count
	}
	if a.KarpenterCost != guideKarpenter || a.HourlyCost != guideAdvised || a.Spot != nil || pending != guidePending {
		t.Errorf("advice %+v (spot %+v), %d pods pending: the guide says Karpenter $%v/h with %d pending, advised $%v/h, spot not given", a, a.Spot, pending, guideKarpenter, guidePending, guideAdvised)
	}
	spot := false
	for _, tr := range a.Trials {
		if tr.Edit.AssumesInterruptible {
			spot = true
			if tr.HourlyCost != guideSpot || tr.Unschedulable != guidePending {
				t.Errorf("spot trial %+v: the guide says $%v/h with %d pods pending", tr, guideSpot, guidePending)
			}
		}
	}
	if !spot {
		t.Errorf("no spot trial in %+v", a.Trials)
	}
	if a.Edit.Requirement.Key != "karpenter.azure.com/sku-cpu" || a.Edit.AssumesInterruptible {
		t.Errorf("advised edit %+v, want a sku-cpu cap", a.Edit)
	}
	if a.KarpenterCost <= simulation.AdviceThreshold*a.OptimalHourlyCost || len(a.Trials) == 0 || len(a.Trials) > simulation.MaxAdviceRuns {
		t.Errorf("advice %+v", a)
	}
	var f *struct{ file, msg, fix string }
	for _, x := range rep.Findings {
		if x.Code == findings.KarpenterDesignCost {
			f = &struct{ file, msg, fix string }{place(x.File, x.Line), x.Message, x.Fix}
		}
	}
	if f == nil || !strings.HasSuffix(f.file, "examples/simulate/wide/nodepool.yaml:13") || !strings.Contains(f.msg, "USD 44.06/h") || !strings.Contains(f.fix, a.Edit.YAML()) {
		t.Fatalf("finding %+v", f)
	}

	// The guide pastes the text report from Karpenter's nodes to the advice, and the finding.
	guide, err := os.ReadFile("../../../templates/guides/what-will-karpenter-launch.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	from, to := strings.Index(out, "  Karpenter would launch"), strings.Index(out, "    HCL:")
	if from < 0 || to < 0 {
		t.Fatalf("text report:\n%s", out)
	}
	shown := out[from : to+strings.Index(out[to:], "\n")]
	if !strings.Contains(string(guide), shown) {
		t.Errorf("the guide's output is stale: paste\n%s", shown)
	}
	if !strings.Contains(string(guide), "examples/simulate/wide/nodepool.yaml:13: note KRP118: "+f.msg+"\n") {
		t.Errorf("the guide's finding is stale: paste\n%s", f.msg)
	}

	edited := simulateBoth(t, withRequirement(t, a.Edit.YAML(), ""))
	if got := simulation.Round(edited.Clusters[0].Result.Karpenter.HourlyCost); got != a.HourlyCost {
		t.Errorf("with %s Karpenter costs $%v/h, the advice said $%v/h", a.Edit.YAML(), got, a.HourlyCost)
	}
	if n := len(edited.Clusters[0].Result.Karpenter.Unschedulable); n != 0 {
		t.Errorf("the advised edit leaves pods pending: %+v", edited.Clusters[0].Result.Karpenter.Unschedulable)
	}
	// The guide's table of trials (cost and pods pending of each edit tried, in order) and the
	// node count with the advised edit are the test's, exactly.
	var rows []string
	for _, line := range strings.Split(string(guide), "\n") {
		if strings.HasPrefix(line, "| `") {
			rows = append(rows, strings.ReplaceAll(line, "**", ""))
		}
	}
	if len(rows) != len(a.Trials) {
		t.Errorf("the guide's table has %d trials, the advice tried %d: %+v", len(rows), len(a.Trials), a.Trials)
	}
	for i, tr := range a.Trials {
		want := fmt.Sprintf("| %s/h | %d |", money.Format(a.Currency, tr.HourlyCost, 2), tr.Unschedulable)
		if i < len(rows) && !strings.HasSuffix(rows[i], want) {
			t.Errorf("the guide's trial %d reads %q, the advice's ends %q", i+1, rows[i], want)
		}
	}
	nodes := fmt.Sprintf("Karpenter would launch %d nodes (", len(edited.Clusters[0].Result.Karpenter.Nodes))
	if !strings.Contains(string(guide), nodes) {
		t.Errorf("the guide does not say %q of the advised edit's outcome", nodes)
	}
	above := fmt.Sprintf("%.0f %% above the optimum instead of %.0f %%", (a.HourlyCost/a.OptimalHourlyCost-1)*100, (a.KarpenterCost/a.OptimalHourlyCost-1)*100)
	if !strings.Contains(strings.Join(strings.Fields(string(guide)), " "), above) {
		t.Errorf("the guide does not say %q", above)
	}
}

// A workload of 40-vCPU pods fits no node under the caps of 9, 17 and 33 vCPU: those edits are
// tried and rejected, and the advice is one that keeps the pods schedulable.
func TestAdviceNeverLeavesPodsPending(t *testing.T) {
	big := "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: big, namespace: shop}\nspec:\n  replicas: 2\n" +
		"  selector: {matchLabels: {app: big}}\n  template:\n    metadata: {labels: {app: big}}\n    spec:\n      containers:\n" +
		"        - name: app\n          resources: {requests: {cpu: \"40\", memory: 64Gi}}\n"
	rep := simulateBoth(t, withRequirement(t, "", big))
	a := rep.Clusters[0].Advice
	if a == nil {
		t.Fatal("no advice")
	}
	// Without an edit, Karpenter's huge nodes reach the pool's cpu limit and 2 pods stay pending.
	before := 0
	for _, u := range rep.Clusters[0].Result.Karpenter.Unschedulable {
		before += u.Count
	}
	rejected := 0
	for _, tr := range a.Trials {
		if tr.Unschedulable > before && tr.Kept {
			t.Errorf("trial %+v leaves more pods pending than before (%d) and was kept", tr, before)
		}
		if !tr.Kept {
			rejected++
		}
		if tr.Edit.YAML() == a.Edit.YAML() && (!tr.Kept || tr.Unschedulable > before) {
			t.Errorf("the advice is an edit that leaves pods pending: %+v", tr)
		}
	}
	if rejected < 3 {
		t.Errorf("want the caps 9, 17 and 33 rejected, trials %+v", a.Trials)
	}
	if a.Spot != nil && a.Spot.Unschedulable > 0 {
		t.Errorf("spot is offered beside the advice though it leaves %d pods pending that the advice schedules", a.Spot.Unschedulable)
	}
}

// The shop example's Karpenter cost is within 10 % of the optimum (or below it): no advice.
func TestNoAdviceWithinThreshold(t *testing.T) {
	rep := simulateBoth(t, "testdata/shop")
	c := rep.Clusters[0]
	k, o := c.Result.Karpenter.HourlyCost, c.Result.Optimal.HourlyCost
	if k > simulation.AdviceThreshold*o {
		t.Fatalf("the fixture no longer tests the threshold: karpenter %v, optimal %v", k, o)
	}
	if c.Advice != nil {
		t.Errorf("advice %+v for karpenter %v within 10 %% of optimal %v", c.Advice, k, o)
	}
	for _, f := range rep.Findings {
		if f.Code == findings.KarpenterDesignCost {
			t.Fatalf("finding %+v", f)
		}
	}
}
