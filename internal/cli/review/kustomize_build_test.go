package review

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
)

// builtPools reviews paths and returns the cluster's NodePools as the checks saw them.
func builtPools(t *testing.T, paths ...string) (map[string]*source.Object, *report.Report) {
	t.Helper()
	pools := map[string]*source.Object{}
	opts := Options{Paths: paths, Region: "eastus"}
	ld, err := Load(opts, true)
	if err != nil {
		t.Fatal(err)
	}
	rep := ld.Review(context.Background(), opts)
	for _, c := range ld.Clusters {
		for _, p := range c.NodePools {
			pools[p.Name] = p
		}
	}
	return pools, rep
}

// The overlay is reviewed as kustomize build builds it: a component's JSON 6902 patch, the
// overlay's JSON 6902 patch file, a configMapGenerator and a replacement from it.
func TestKustomizeBuildSemantics(t *testing.T) {
	pools, rep := builtPools(t, "testdata/kustomize/prod")
	p := pools["general"]
	if p == nil || len(pools) != 1 {
		t.Fatalf("pools %v", pools)
	}
	for _, c := range []struct {
		path []string
		want any
	}{
		{[]string{"spec", "weight"}, int64(50)},         // JSON 6902 patch file
		{[]string{"spec", "limits", "memory"}, "400Gi"}, // the component's JSON 6902 patch
		{[]string{"spec", "limits", "cpu"}, "64"},       // replacement from the generated ConfigMap
		{[]string{"metadata", "namespace"}, nil},        // cluster-scoped: no namespace
		{[]string{"spec", "template", "spec", "nodeClassRef", "name"}, "default"},
	} {
		if got := p.Get(c.path...); got != c.want {
			t.Errorf("%s = %#v, want %#v", strings.Join(c.path, "."), got, c.want)
		}
	}
	if op := p.Get("spec", "template", "spec", "requirements").([]any)[0].(map[string]any)["operator"]; op != "NotIn" {
		t.Errorf("operator %v, want the patch's NotIn", op)
	}
	// Positions: the base for what it wrote, the patch's operation for what the patch set.
	if at := p.At("spec.weight"); at.File != "testdata/kustomize/prod/weight.yaml" || at.Line != 1 {
		t.Errorf("spec.weight at %+v, want the operation in weight.yaml:1", at)
	}
	if at := p.At("spec.template.spec.requirements[0].operator"); at.File != "testdata/kustomize/prod/weight.yaml" || at.Line != 4 {
		t.Errorf("operator at %+v, want weight.yaml:4", at)
	}
	if at := p.At("spec.limits.memory"); at.File != "testdata/kustomize/comp/kustomization.yaml" {
		t.Errorf("spec.limits.memory at %+v, want the component", at)
	}
	if at := p.At("spec.limits.cpu"); at.File != "testdata/kustomize/prod/kustomization.yaml" || at.Line != 17 {
		t.Errorf("spec.limits.cpu at %+v, want the replacement's target field in prod/kustomization.yaml:17", at)
	}
	if at := p.At("spec.template.spec.nodeClassRef"); at.File != "testdata/kustomize/base/pools.yaml" {
		t.Errorf("nodeClassRef at %+v, want the base", at)
	}
	for _, s := range rep.Skipped {
		if strings.Contains(s.Reason, "JSON 6902") {
			t.Errorf("skipped %+v: kustomize applied it", s)
		}
	}
}

// A rejection caused by a JSON 6902 patch points at the patch's operation; a kustomization
// kustomize cannot build is a finding at the entry its error names.
func TestKustomizeBuildFindings(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	base, err := os.ReadFile("testdata/kustomize/base/pools.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write("base/pools.yaml", string(base))
	write("base/kustomization.yaml", "resources: [pools.yaml]\n")
	write("heavy/kustomization.yaml", "resources: [../base]\npatches:\n  - path: weight.yaml\n    target: {kind: NodePool}\n")
	write("heavy/weight.yaml", "# weight is at most 100\n- op: replace\n  path: /spec/weight\n  value: 500\n")
	write("broken/kustomization.yaml", "resources: [../base]\nreplacements:\n  - source: {kind: ConfigMap, name: nope, fieldPath: data.cpu}\n    targets: [{select: {kind: NodePool}, fieldPaths: [spec.limits.cpu]}]\n")

	out := runJSON(t, "", ExitFindings, "--region", "eastus", filepath.Join(dir, "heavy"), filepath.Join(dir, "base"))
	found := false
	for _, f := range out.Findings {
		if f.Field == "spec.weight" {
			found = true
			if !strings.HasSuffix(f.File, "heavy/weight.yaml") || f.Line != 2 {
				t.Errorf("spec.weight rejected at %s:%d, want the operation at heavy/weight.yaml:2", f.File, f.Line)
			}
		}
	}
	if !found {
		t.Errorf("the patched weight 500 was not rejected: %+v", out.Findings)
	}

	out = runJSON(t, "", ExitFindings, "--region", "eastus", filepath.Join(dir, "broken"), filepath.Join(dir, "base"))
	found = false
	for _, f := range out.Findings {
		if f.Code == "KRP005" && strings.Contains(f.Message, "kustomize build fails") {
			found = true
			if !strings.HasSuffix(f.File, "broken/kustomization.yaml") || f.Line != 3 {
				t.Errorf("build failure at %s:%d, want broken/kustomization.yaml:3", f.File, f.Line)
			}
		}
	}
	if !found {
		t.Errorf("the failing build is no finding: %+v", out.Findings)
	}

	// A kustomization that is not YAML is a syntax error at its line, and nothing is built.
	write("bad/kustomization.yaml", "resources:\n  - ../base\npatches: [\n")
	out = runJSON(t, "", ExitFindings, "--region", "eastus", filepath.Join(dir, "bad"), filepath.Join(dir, "base"))
	var got []string
	for _, f := range out.Findings {
		if strings.Contains(f.File, "bad/") {
			got = append(got, f.Code)
		}
	}
	if len(got) != 1 || got[0] != "KRP005" {
		t.Errorf("findings on the broken kustomization %v, want one KRP005", got)
	}
}

// A v1beta1 NodePool in a built kustomization is still checked as Karpenter's v1 migration
// converts it (KRP002), not as the v1beta1 body kustomize passes through.
func TestKustomizeBuildKeepsConvertedPools(t *testing.T) {
	dir := t.TempDir()
	legacy, err := os.ReadFile("testdata/single/legacy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "legacy.yaml"), legacy, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources: [legacy.yaml]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	direct := runJSON(t, "", ExitFindings, "--region", "eastus", filepath.Join(dir, "legacy.yaml"))
	built := runJSON(t, "", ExitFindings, "--region", "eastus", dir)
	codes := func(o jsonOut) []string {
		var out []string
		for _, f := range o.Findings {
			out = append(out, f.Code+" "+f.Field)
		}
		slices.Sort(out)
		return out
	}
	if got, want := codes(built), codes(direct); !slices.Equal(got, want) {
		t.Errorf("through kustomize: %v\nread directly: %v", got, want)
	}
}
