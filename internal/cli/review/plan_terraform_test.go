package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// These tests plan real configurations with the real terraform binary and this provider,
// built from this checkout and installed through a dev_overrides CLI configuration. Planning
// creates needs no cluster: the provider connects only on apply or refresh.

var (
	providerOnce sync.Once
	providerDir  string
	providerErr  error
	plansMu      sync.Mutex
	plans        = map[string]string{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	if providerDir != "" {
		_ = os.RemoveAll(providerDir)
	}
	os.Exit(code)
}

// terraformBinary finds terraform (or OpenTofu): TF_ACC_TERRAFORM_PATH as `make test` sets
// it, else the PATH. Without one the tests skip, except under CI=true where they must run.
func terraformBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	for _, n := range []string{"terraform", "tofu"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	const msg = "no terraform or tofu binary on the PATH or in TF_ACC_TERRAFORM_PATH"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + "; under CI=true the real-plan tests must run (make test provides one)")
	}
	t.Skip(msg + "; skipping the real-plan tests (make test provides one)")
	return ""
}

// providerBinary builds the provider from this checkout once per test run.
func providerBinary(t *testing.T) string {
	t.Helper()
	providerOnce.Do(func() {
		providerDir, providerErr = os.MkdirTemp("", "review-provider-")
		if providerErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(providerDir, "terraform-provider-karpenter"), ".")
		cmd.Dir = filepath.Join("..", "..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			providerErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if providerErr != nil {
		t.Fatal(providerErr)
	}
	return providerDir
}

// realPlan runs terraform plan and terraform show -json on a copy of configDir and returns
// the path of the JSON plan. Plans are made once per configuration and test run.
func realPlan(t *testing.T, configDir string, vars ...string) string {
	t.Helper()
	tf := terraformBinary(t)
	plansMu.Lock()
	defer plansMu.Unlock()
	if p, ok := plans[configDir]; ok {
		return p
	}
	bin := providerBinary(t)
	work, err := os.MkdirTemp(providerDir, "plan-")
	if err != nil {
		t.Fatal(err)
	}
	// The .tf files, with those of local modules in their subdirectories.
	modules := false
	err = filepath.WalkDir(configDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".tf" {
			return err
		}
		rel, _ := filepath.Rel(configDir, path)
		modules = modules || filepath.Dir(rel) != "."
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(work, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(work, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(work, "cli.tfrc")
	// The provider source's short form, for terraform and OpenTofu alike.
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", "karpenter-iac/karpenter", bin)
	if err := os.WriteFile(cli, []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + cli, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0"}
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "TF_") {
			env = append(env, e)
		}
	}
	tfRun := func(args ...string) []byte {
		cmd := exec.Command(tf, args...)
		cmd.Dir, cmd.Env = work, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %s: %v\n%s\n%s", tf, strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		return stdout.Bytes()
	}
	if modules {
		tfRun("get", "-no-color") // installs the local modules (init would look up the provider in the registry)
	}
	args := []string{"plan", "-input=false", "-lock=false", "-refresh=false", "-no-color", "-out=plan.out"}
	for _, v := range vars {
		args = append(args, "-var", v)
	}
	tfRun(args...)
	out := filepath.Join(work, "plan.json")
	if err := os.WriteFile(out, tfRun("show", "-json", "plan.out"), 0o644); err != nil {
		t.Fatal(err)
	}
	plans[configDir] = out
	return out
}

// briefPlan is brief with the plan's temporary directory cut away.
func briefPlan(o jsonOut, plan string) []string {
	var out []string
	for _, l := range o.brief() {
		out = append(out, strings.ReplaceAll(l, filepath.ToSlash(plan), "plan.json"))
	}
	return out
}

// The repository's own example, as users start from it, reviews clean; its region comes from
// the variable the provider block uses.
func TestPlanOfQuickstartExample(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	plan := realPlan(t, filepath.Join("..", "..", "..", "examples", "quickstart"), "kubeconfig_path="+kubeconfig)
	out := runJSON(t, "", ExitClean, plan)
	sameLines(t, briefPlan(out, plan), nil)
	var pools []string
	for _, p := range out.Pools {
		pools = append(pools, p.Name+"@"+p.Location.Address)
		if p.Region != "westeurope" {
			t.Errorf("pool %s region %q, want westeurope from var.region", p.Name, p.Region)
		}
	}
	if strings.Join(pools, ",") != "batch@karpenter_nodepool.batch,general@karpenter_nodepool.general,gpu@karpenter_nodepool.gpu" {
		t.Errorf("pools %v", pools)
	}
}

// A configuration with problems the provider accepts one resource at a time: findings point
// at resource addresses with both the Kubernetes field and the Terraform attribute, and a
// reference unknown until apply is left alone.
func TestPlanFindings(t *testing.T) {
	plan := realPlan(t, filepath.Join("testdata", "plan"))
	out := runJSON(t, "", ExitFindings, plan)
	sameLines(t, briefPlan(out, plan), []string{
		"plan.json: karpenter_nodepool.batch KRP104 NodePool/batch spec.limits (limits)",
		"plan.json: karpenter_nodepool.batch KRP202 NodePool/batch spec.weight (weight)",
		// 100 vCPU over D sizes up to 96, 16 over arm64 sizes up to 16: one NodeClaim of any size per round.
		"plan.json: karpenter_nodepool.general KRP119 NodePool/general spec.limits (limits)",
		"plan.json: karpenter_nodepool.orphan KRP119 NodePool/orphan spec.limits (limits)",
		"plan.json: karpenter_nodepool.orphan KRP201 NodePool/orphan spec.template.spec.nodeClassRef.name (template.node_class_ref.name)",
	})
	if out.Clusters[0].Region != "northeurope" || out.Clusters[0].NodePools != 4 || out.Clusters[0].NodeClasses != 1 {
		t.Errorf("clusters %+v", out.Clusters)
	}
	for _, p := range out.Pools {
		if p.Name == "late" && !hasFact(p.Facts, "node class", "(known after apply)") {
			t.Errorf("late pool facts %+v", p.Facts)
		}
	}

	// The same review through the released binary's subcommand (main's dispatch; without
	// arguments the same binary just served terraform as its plugin), as SARIF for CI.
	cmd := exec.Command(filepath.Join(providerBinary(t), "terraform-provider-karpenter"), "review", "--format", "sarif", plan)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitFindings {
		t.Fatalf("binary review: %v, want exit code %d", err, ExitFindings)
	}
	if err := validateSARIF(t, compileSARIFSchema(t), stdout.String()); err != nil {
		t.Errorf("SARIF of the plan review: %v", err)
	}
	for _, want := range []string{`"fullyQualifiedName": "karpenter_nodepool.orphan"`, `"attribute": "template.node_class_ref.name"`, `"uri": "file:///`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("plan SARIF lacks %s", want)
		}
	}
}

// A plan from another provider version: an attribute this version does not know, a value the
// CRD rejects (which this version's provider would have refused to plan) and an unknown
// resource type are reported with their addresses; the rest is still reviewed.
func TestPlanFromAnotherProviderVersion(t *testing.T) {
	var plan map[string]any
	data, err := os.ReadFile(realPlan(t, filepath.Join("testdata", "plan")))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &plan); err != nil {
		t.Fatal(err)
	}
	changes := plan["resource_changes"].([]any)
	for _, c := range changes {
		rc := c.(map[string]any)
		if rc["address"] == "karpenter_nodepool.general" {
			after := rc["change"].(map[string]any)["after"].(map[string]any)
			after["future_field"] = "x"
			after["disruption"].(map[string]any)["consolidate_after"] = "forever"
		}
	}
	plan["resource_changes"] = append(changes, map[string]any{
		"address": "karpenter_future_widget.w", "mode": "managed", "type": "karpenter_future_widget",
		"change": map[string]any{"actions": []any{"create"}, "after": map[string]any{"mode": "Auto"}},
	})
	mutated, _ := json.Marshal(plan)
	out := runJSON(t, string(mutated), ExitFindings, "-")
	sameLines(t, out.brief(), []string{
		"stdin: karpenter_future_widget.w KRP007 ",
		"stdin: karpenter_nodepool.batch KRP104 NodePool/batch spec.limits (limits)",
		"stdin: karpenter_nodepool.batch KRP202 NodePool/batch spec.weight (weight)",
		"stdin: karpenter_nodepool.general KRP001 NodePool/general spec.disruption.consolidateAfter (disruption.consolidate_after)",
		"stdin: karpenter_nodepool.general KRP007 NodePool/general (future_field)",
		"stdin: karpenter_nodepool.orphan KRP119 NodePool/orphan spec.limits (limits)",
		"stdin: karpenter_nodepool.orphan KRP201 NodePool/orphan spec.template.spec.nodeClassRef.name (template.node_class_ref.name)",
	})
	for _, f := range out.Findings {
		if f.Code == "KRP007" && f.Object != "" && !strings.Contains(f.Message, "future_field (not an attribute of this provider version)") {
			t.Errorf("KRP007 message %q", f.Message)
		}
	}
}

// A pool's own checks.suppress in the plan silences the code in the review too, and only for
// that pool.
func TestPlanHonoursPoolSuppressions(t *testing.T) {
	plan := realPlan(t, filepath.Join("testdata", "plan-suppress"))
	out := runJSON(t, "", ExitClean, "--fail-on", "error", plan)
	sameLines(t, briefPlan(out, plan), []string{
		"plan.json: karpenter_nodepool.loud KRP104 NodePool/loud spec.limits (limits)",
	})
	if out.Suppressed != 1 {
		t.Errorf("suppressed = %d, want 1 (quiet's KRP104)", out.Suppressed)
	}
}

// A plan with two karpenter provider configurations (two clusters, one alias each, one of
// them given to a module) is reviewed as two clusters: each in its provider's region, and the
// east cluster's spot-only pools find no fallback in the west cluster's on-demand pool.
func TestPlanWithProviderAliases(t *testing.T) {
	plan := realPlan(t, filepath.Join("testdata", "plan-aliases"))
	// The pools use NAP's default node class, which AKS creates: warnings only.
	out := runJSON(t, "", ExitClean, plan)
	var clusters []string
	for _, c := range out.Clusters {
		clusters = append(clusters, fmt.Sprintf("%s@%s:%d", c.Name, c.Region, c.NodePools))
	}
	if got := strings.Join(clusters, ","); got != "karpenter@westeurope:1,karpenter.east@eastus:2" {
		t.Errorf("clusters %s", got)
	}
	var pools []string
	for _, p := range out.Pools {
		pools = append(pools, p.Cluster+":"+p.Location.Address)
	}
	slices.Sort(pools)
	want := []string{"karpenter.east:karpenter_nodepool.spot", "karpenter.east:module.edge[0].karpenter_nodepool.batch[\"batch\"]", "karpenter:karpenter_nodepool.general"}
	if !slices.Equal(pools, want) {
		t.Errorf("pools %v, want %v", pools, want)
	}
	var spot []string
	for _, f := range out.Findings {
		if f.Code == "KRP110" {
			spot = append(spot, f.Cluster+":"+f.Object)
		}
	}
	slices.Sort(spot)
	if !slices.Equal(spot, []string{"karpenter.east:NodePool/batch", "karpenter.east:NodePool/spot"}) {
		t.Errorf("KRP110 findings %v, want both east pools", spot)
	}
}

// A plan that sets Node Auto Provisioning to Manual runs self-hosted Karpenter: AKS creates no
// `default` node class, so a pool that references it without defining it is KRP201.
func TestPlanSelfHostedHasNoDefaultNodeClass(t *testing.T) {
	plan := realPlan(t, filepath.Join("testdata", "plan-selfhosted"))
	out := runJSON(t, "", ExitFindings, plan)
	var got []string
	for _, l := range briefPlan(out, plan) {
		if strings.Contains(l, " KRP201 ") {
			got = append(got, l)
		}
	}
	sameLines(t, got, []string{
		"plan.json: karpenter_nodepool.general KRP201 NodePool/general spec.template.spec.nodeClassRef.name (template.node_class_ref.name)",
	})
}

// A plan whose pools name their cluster in the `cluster` attribute (one provider
// configuration, for_each over clusters) is reviewed as one cluster per target, in the
// cluster's region or else the provider's: aks-eus's spot-only pool finds no fallback in
// aks-weu's on-demand pool, as the plan-time checks scope it.
func TestPlanWithClusterAttribute(t *testing.T) {
	plan := realPlan(t, filepath.Join("testdata", "plan-fleet"))
	out := runJSON(t, "", ExitClean, plan)
	var clusters []string
	for _, c := range out.Clusters {
		clusters = append(clusters, fmt.Sprintf("%s@%s:%d", c.Name, c.Region, c.NodePools))
	}
	slices.Sort(clusters)
	if got := strings.Join(clusters, ","); got != "aks-eus@eastus:1,aks-weu@westeurope:1" {
		t.Errorf("clusters %s, want one per cluster attribute", got)
	}
	var spot []string
	for _, f := range out.Findings {
		if f.Code == "KRP110" {
			spot = append(spot, f.Cluster+":"+f.Object)
		}
	}
	if !slices.Equal(spot, []string{"aks-eus:NodePool/general"}) {
		t.Errorf("KRP110 findings %v, want aks-eus's spot-only pool", spot)
	}
}

// A plan with karpenter_ec2nodeclass: the review reads it as the EC2NodeClass it manages
// (KRP120 on its @latest alias in a production-looking class) and judges the EKS pool against
// EC2 instance types in the provider's region, where the getting-started pool fits hundreds
// (and its 1000 vCPU hold two of the largest, 384 vCPU: KRP119).
func TestPlanWithEC2NodeClass(t *testing.T) {
	plan := realPlan(t, filepath.Join("testdata", "plan-eks"))
	out := runJSON(t, "", ExitClean, plan)
	if len(out.Clusters) != 1 || out.Clusters[0].Region != "us-east-1" {
		t.Fatalf("clusters %+v, want one in us-east-1", out.Clusters)
	}
	var got []string
	for _, f := range out.Findings {
		if f.Severity != "note" {
			got = append(got, string(f.Code)+" "+f.Object)
		}
	}
	slices.Sort(got)
	if want := []string{"KRP119 NodePool/general", "KRP120 EC2NodeClass/prod"}; !slices.Equal(got, want) {
		t.Errorf("findings %v, want %v", got, want)
	}
}
