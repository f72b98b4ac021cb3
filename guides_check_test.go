package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// The guides' terraform output blocks, checked against the output of the command they show.
// internal/cli/review's TestGuideOutputs lists every block; these tests check the blocks of the
// eks, findings, multi-zone, migrate-from-manifests and prices guides. A text block may leave
// text out only where it says "[...]": every other line is the CLI's, in order, up to line
// wrapping.

// guideFence is the n-th fenced block of lang in templates/guides/<guide>.md.tmpl, from 0.
func guideFence(t *testing.T, guide, lang string, n int) string {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("templates/guides", guide+".md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	fence := regexp.MustCompile("(?ms)^```" + regexp.QuoteMeta(lang) + "\n(.*?)^```\n")
	blocks := fence.FindAllStringSubmatch(string(body), -1)
	if n >= len(blocks) {
		t.Fatalf("templates/guides/%s.md.tmpl has %d ```%s blocks, the test reads block %d", guide, len(blocks), lang, n)
	}
	return blocks[n][1]
}

// guideFenceWith is the fenced block of lang in the guide that contains marker.
func guideFenceWith(t *testing.T, guide, lang, marker string) string {
	t.Helper()
	for n := 0; ; n++ {
		if b := guideFence(t, guide, lang, n); strings.Contains(b, marker) {
			return b
		}
	}
}

// checkGuideBlock fails unless the guide's n-th text block is in out: each stretch between
// "[...]" marks appears in out, in order, with runs of white space counted as one space.
func checkGuideBlock(t *testing.T, guide string, n int, out string) {
	t.Helper()
	block := guideFence(t, guide, "text", n)
	have := strings.Join(strings.Fields(out), " ")
	at := 0
	for _, part := range strings.Split(block, "[...]") {
		want := strings.Join(strings.Fields(part), " ")
		if want == "" {
			continue
		}
		i := strings.Index(have[at:], want)
		if i < 0 {
			t.Errorf("templates/guides/%s.md.tmpl, text block %d: the CLI no longer prints\n%s\n\nIts output:\n%s", guide, n, part, out)
			return
		}
		at += i + len(want)
	}
}

// terraformForGuides is TF_ACC_TERRAFORM_PATH, as `make test` sets it. Without it the test
// skips, except under CI=true.
func terraformForGuides(t *testing.T) string {
	t.Helper()
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || tf == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("TF_ACC and TF_ACC_TERRAFORM_PATH unset: under CI=true the guides' outputs must be checked (make test sets them)")
		}
		t.Skip("TF_ACC and TF_ACC_TERRAFORM_PATH unset (make test sets them)")
	}
	return tf
}

// guideWorkspace writes the files into a new directory and returns it.
func guideWorkspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// terraformPlan plans dir as a user would, with the provider built from this checkout
// installed through dev_overrides, and returns the CLI's output and exit code.
func terraformPlan(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	tf := terraformForGuides(t)
	bin := binary(t)
	rc := filepath.Join(t.TempDir(), "cli.tfrc")
	if err := os.WriteFile(rc, fmt.Appendf(nil, "provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", "karpenter-iac/karpenter", bin), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0"}
	for _, e := range os.Environ() {
		// The guides' plans connect to nothing but what their variables name.
		if !strings.HasPrefix(e, "TF_") && !strings.HasPrefix(e, "KUBE") && !strings.HasPrefix(e, "AWS_") && !strings.HasPrefix(e, "ARM_") {
			env = append(env, e)
		}
	}
	cmd := exec.Command(tf, append([]string{"plan", "-input=false", "-lock=false", "-no-color"}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), 0
}

// edit replaces old with new in s once, failing when s does not contain old: the example
// changed and the test no longer edits what the guide describes.
func edit(t *testing.T, s, old, new string) string {
	t.Helper()
	if strings.Count(s, old) != 1 {
		t.Fatalf("the example has %d copies of %q, the test edits exactly one", strings.Count(s, old), old)
	}
	return strings.Replace(s, old, new, 1)
}

// readFile is the repository file's content.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The EKS guide's four diagnostics: the getting-started pool with the provider's region set
// (KRP119), then with a requirement no type meets (KRP101), then with a typo in a key (the CRD's
// rule and KRP106), and the production-looking class the guide shows (KRP120-KRP122).
func TestGuideEKSDiagnostics(t *testing.T) {
	example := edit(t, readFile(t, "examples/scenarios/eks/main.tf"), "provider \"karpenter\" {\n", "provider \"karpenter\" {\n  region = \"us-east-1\"\n")
	cases := []struct {
		name     string
		block    int
		mainTF   string
		wantCode int
	}{
		{"getting-started", 0, example, 0},
		{"instance-cpu Gt 4096", 1, edit(t, example,
			"      { key = \"karpenter.k8s.aws/instance-generation\", operator = \"Gt\", values = [\"2\"] },\n",
			"      { key = \"karpenter.k8s.aws/instance-generation\", operator = \"Gt\", values = [\"2\"] },\n      { key = \"karpenter.k8s.aws/instance-cpu\", operator = \"Gt\", values = [\"4096\"] },\n"), 1},
		{"instance-categry", 2, edit(t, example, "\"karpenter.k8s.aws/instance-category\"", "\"karpenter.k8s.aws/instance-categry\""), 1},
		// The guide shows this configuration itself.
		{"prod class", 3, guideFenceWith(t, "eks", "terraform", `resource "karpenter_ec2nodeclass" "prod"`), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, code := terraformPlan(t, guideWorkspace(t, map[string]string{"main.tf": tc.mainTF}), "-refresh=false")
			if code != tc.wantCode {
				t.Errorf("terraform plan exited %d, want %d:\n%s", code, tc.wantCode, out)
			}
			checkGuideBlock(t, "eks", tc.block, out)
		})
	}
}

// The findings guide's KRP104 diagnostic, from the pool it names: "batch" at line 10, in
// westeurope, with the AKSNodeClass default planned in the same run and no limits.
func TestGuideFindingsDiagnostic(t *testing.T) {
	mainTF := `terraform {
  required_providers { karpenter = { source = "karpenter-iac/karpenter" } }
}
provider "karpenter" { region = "westeurope" }

resource "karpenter_aksnodeclass" "default" {
  name = "default"
}

resource "karpenter_nodepool" "batch" {
  name = "batch"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
}
`
	out, code := terraformPlan(t, guideWorkspace(t, map[string]string{"main.tf": mainTF}), "-refresh=false")
	if code != 0 {
		t.Errorf("terraform plan exited %d:\n%s", code, out)
	}
	checkGuideBlock(t, "findings", 0, out)
}

// The multi-zone guide's KRP111: the example's db-zone1 pool warns once its suppress no longer
// lists the code, and the example as written plans without the warning.
func TestGuideMultiZoneDiagnostic(t *testing.T) {
	example := readFile(t, "examples/scenarios/multi-zone/main.tf")
	out, code := terraformPlan(t, guideWorkspace(t, map[string]string{"main.tf": example}), "-refresh=false")
	if code != 0 || strings.Contains(out, "Warning: KRP111") {
		t.Errorf("the example as written: exit %d, want 0 and no KRP111:\n%s", code, out)
	}
	unsuppressed := edit(t, example, `suppress = ["KRP111", "KRP119"]`, `suppress = ["KRP119"]`)
	out, code = terraformPlan(t, guideWorkspace(t, map[string]string{"main.tf": unsuppressed}), "-refresh=false")
	if code != 0 {
		t.Errorf("terraform plan exited %d:\n%s", code, out)
	}
	checkGuideBlock(t, "multi-zone", 0, out)
}

// The migration guide's plan summary: with the example's three objects in a cluster, as
// kubectl applied them, the plan with adopt_existing imports them and changes nothing.
func TestGuideMigratePlan(t *testing.T) {
	terraformForGuides(t)
	if os.Getenv("KUBEBUILDER_ASSETS") == "" && os.Getenv("CI") != "true" {
		t.Skip("KUBEBUILDER_ASSETS unset: no local API server (make test sets it)")
	}
	cluster, err := testenv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Stop)
	const example = "examples/scenarios/migrate-from-manifests"
	files := map[string]string{"main.tf": readFile(t, filepath.Join(example, "main.tf"))}
	manifests, err := filepath.Glob(filepath.Join(example, "manifests", "*.yaml"))
	if err != nil || len(manifests) != 3 {
		t.Fatalf("want the example's 3 manifests, got %v (%v)", manifests, err)
	}
	resources := map[string]schema.GroupVersionResource{
		"NodePool":     {Group: "karpenter.sh", Version: "v1", Resource: "nodepools"},
		"AKSNodeClass": {Group: "karpenter.azure.com", Version: "v1beta1", Resource: "aksnodeclasses"},
	}
	for _, m := range manifests {
		content := readFile(t, m)
		files[filepath.Join("manifests", filepath.Base(m))] = content
		obj := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(content), &obj.Object); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		gvr, ok := resources[obj.GetKind()]
		if !ok {
			t.Fatalf("%s: kind %q", m, obj.GetKind())
		}
		// As kubectl_manifest applies it: server-side apply under kubectl's field manager.
		if _, err := cluster.Dynamic.Resource(gvr).Apply(context.Background(), obj.GetName(), obj, metav1.ApplyOptions{FieldManager: "kubectl", Force: true}); err != nil {
			t.Fatalf("applying %s: %v", m, err)
		}
	}
	out, code := terraformPlan(t, guideWorkspace(t, files), "-var", "adopt_existing=true", "-var", "kubeconfig_path="+cluster.KubeconfigPath)
	if code != 0 {
		t.Fatalf("terraform plan exited %d:\n%s", code, out)
	}
	checkGuideBlock(t, "migrate-from-manifests", 0, out)
}

// The prices guide's excerpt of `review --format json`, from the EKS getting-started pool in
// us-east-1: each price source it lists, the pool's cheapest fact, and the KRP117 finding,
// whose message it shortens with "…", are the report's.
func TestGuidePricesProvenance(t *testing.T) {
	r := runBinary(t, "review", "--region", "us-east-1", "--format", "json", "examples/eks/getting-started")
	type source struct{ ID, Region, Currency, Source string }
	type fact struct{ Name, Value, PriceSource string }
	type report struct {
		PriceSources []source `json:"priceSources"`
		Pools        []struct {
			Name  string `json:"name"`
			Facts []fact `json:"facts"`
		} `json:"pools"`
		Findings []struct {
			Code         string   `json:"code"`
			Message      string   `json:"message"`
			PriceSources []string `json:"priceSources"`
		} `json:"findings"`
	}
	var got, want report
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("review --format json: %v\n%s\n%s", err, r.stdout, r.stderr)
	}
	block := guideFenceWith(t, "prices", "json", `"priceSources"`)
	if err := json.Unmarshal([]byte("{"+block+"}"), &want); err != nil {
		t.Fatalf("templates/guides/prices.md.tmpl: the priceSources block is not a JSON excerpt: %v", err)
	}
	for _, s := range want.PriceSources {
		if !slices.Contains(got.PriceSources, s) {
			t.Errorf("the guide's price source %+v is not in the report's %+v", s, got.PriceSources)
		}
	}
	for _, wp := range want.Pools {
		for _, wf := range wp.Facts {
			found := false
			for _, gp := range got.Pools {
				found = found || gp.Name == wp.Name && slices.Contains(gp.Facts, wf)
			}
			if !found {
				t.Errorf("the guide's fact %+v of pool %s is not in the report: %+v", wf, wp.Name, got.Pools)
			}
		}
	}
	for _, wf := range want.Findings {
		found := false
		for _, gf := range got.Findings {
			if gf.Code != wf.Code || !slices.Equal(gf.PriceSources, wf.PriceSources) {
				continue
			}
			at, ok := 0, true
			for _, part := range strings.Split(wf.Message, "…") {
				part = strings.TrimSpace(part)
				i := strings.Index(gf.Message[at:], part)
				if i < 0 {
					ok = false
					break
				}
				at += i + len(part)
			}
			found = found || ok
		}
		if !found {
			t.Errorf("the guide's %s finding %q (sources %v) is not in the report: %+v", wf.Code, wf.Message, wf.PriceSources, got.Findings)
		}
	}
}
