package helmchart

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
)

func readAll(abs string) ([]byte, error, error) {
	data, err := os.ReadFile(abs)
	return data, nil, err
}

func render(t *testing.T, dir string, vals map[string]any) ([]Rendered, []Problem) {
	t.Helper()
	abs, _ := filepath.Abs(dir)
	files, refused, err := Load(abs, readAll)
	if err != nil || len(refused) > 0 {
		t.Fatalf("load: %v %v", err, refused)
	}
	return Render(abs, files, Options{Values: vals})
}

// The chart renders as helm template renders it: values files merged over the chart's,
// --set applied last, partials and NOTES.txt left out, each template's documents after a ---
// and a # Source line.
func TestRenderWithValues(t *testing.T) {
	prod, err := os.ReadFile("../../cli/review/testdata/helm/prod-values.yaml")
	if err != nil {
		t.Fatal(err)
	}
	vals, err := Values([]ValuesFile{{Name: "prod-values.yaml", Data: prod}}, []string{"pools[1].cpu=64"})
	if err != nil {
		t.Fatal(err)
	}
	out, probs := render(t, "../../cli/review/testdata/helm/pools", vals)
	if len(probs) > 0 {
		t.Fatalf("problems %+v", probs)
	}
	var sources []string
	var pools []manifest.Object
	for _, r := range out {
		sources = append(sources, r.Source)
		docs, probs := manifest.Read(r.Source, r.Text, manifest.Options{})
		if len(probs) > 0 {
			t.Fatalf("%s: %+v\n%s", r.Source, probs, r.Text)
		}
		for _, o := range manifest.Objects(docs) {
			if o.GVK.Kind == "NodePool" {
				pools = append(pools, o)
			}
		}
	}
	if strings.Join(sources, ",") != "pools/templates/nodeclass.yaml,pools/templates/nodepool.yaml" {
		t.Errorf("sources %v", sources)
	}
	if len(pools) != 2 || pools[0].Name() != "general" || pools[1].Name() != "batch" {
		t.Fatalf("pools %+v", pools)
	}
	if cpu := pools[1].Body["spec"].(map[string]any)["limits"].(map[string]any)["cpu"]; cpu != "64" {
		t.Errorf("batch cpu %v, want the --set value 64", cpu)
	}
	if fam := pools[0].Body["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["requirements"].([]any)[1].(map[string]any)["values"]; len(fam.([]any)) != 2 {
		t.Errorf("general families %v, want prod-values' [D, E]", fam)
	}
	meta := pools[0].Body["metadata"].(map[string]any)["labels"].(map[string]any)
	if meta["app.kubernetes.io/instance"] != "release-name" || meta["app.kubernetes.io/managed-by"] != "Helm" {
		t.Errorf("labels %v, want helm template's release-name and Helm", meta)
	}
	// Lines are those of helm template --show-only: ---, # Source, then the document.
	if pools[0].Line != 3 {
		t.Errorf("first pool at line %d, want 3", pools[0].Line)
	}
	lines := strings.Split(string(out[1].Text), "\n")
	if l := pools[0].LineOf([]string{"spec", "template", "spec", "requirements", "0", "operator"}); l != 19 || !strings.Contains(lines[l-1], "operator: In") {
		t.Errorf("operator at line %d of\n%s", l, out[1].Text)
	}
}

// A template error is a problem at the template's line; a dependency missing from charts/
// at its line in Chart.yaml (nothing is fetched).
func TestRenderProblems(t *testing.T) {
	_, probs := render(t, "../../cli/review/testdata/helm/broken", nil)
	if len(probs) != 1 || filepath.Base(probs[0].File) != "pool.yaml" || probs[0].Line != 5 || !strings.Contains(probs[0].Message, "pool.name is required") {
		t.Errorf("template error: %+v", probs)
	}
	_, probs = render(t, "../../cli/review/testdata/helm/missingdep", nil)
	if len(probs) != 1 || filepath.Base(probs[0].File) != "Chart.yaml" || probs[0].Line != 5 || !strings.Contains(probs[0].Message, "common") {
		t.Errorf("missing dependency: %+v", probs)
	}
}
