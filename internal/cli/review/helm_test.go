package review

import (
	"os"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
)

// A chart met in a review is rendered as helm template renders it, with the values given on
// the command line, and its objects are reviewed; their lines are those of
// `helm template --show-only` for the template.
func TestHelmChartIsRendered(t *testing.T) {
	out := runJSON(t, "", ExitClean, "--region", "eastus", "--helm-values", "testdata/helm/prod-values.yaml", "--helm-set", "pools[1].cpu=64", "testdata/helm/pools")
	for _, f := range out.Findings {
		if f.Severity == "error" {
			t.Errorf("finding %s %s:%d %s", f.Code, f.File, f.Line, f.Message)
		}
	}
	var names []string
	for _, p := range out.Pools {
		names = append(names, p.Name)
		if p.Location.File != "testdata/helm/pools/templates/nodepool.yaml" {
			t.Errorf("pool %s at %s", p.Name, p.Location.File)
		}
	}
	if strings.Join(names, ",") != "general,batch" {
		t.Errorf("pools %v, want prod-values' general and batch", names)
	}
	if len(out.Clusters) != 1 || out.Clusters[0].NodeClasses != 1 {
		t.Errorf("clusters %+v, want the chart's AKSNodeClass", out.Clusters)
	}
	// Without the values file, the chart's own values: one pool.
	out = runJSON(t, "", ExitClean, "--region", "eastus", "testdata/helm/pools")
	if len(out.Pools) != 1 || out.Pools[0].Name != "general" {
		t.Errorf("pools %+v, want the chart's default general", out.Pools)
	}
}

// What the API server would reject in the rendered output is reported at the line of the
// rendered template where the value is.
func TestHelmRenderedObjectIsChecked(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "--region", "eastus", "--helm-set", "pools[0].name=general,pools[0].operator=Sometimes,pools[0].cpu=8,pools[0].families={D}", "testdata/helm/pools")
	var got []string
	for _, f := range out.Findings {
		if f.Severity == "error" {
			got = append(got, f.Code+" "+report.PlaceOf(f.Location)+" "+f.Field)
		}
	}
	// ---, # Source, then the document: operator is on line 19 of the output.
	if len(got) != 1 || !strings.Contains(got[0], "testdata/helm/pools/templates/nodepool.yaml:19") {
		t.Errorf("errors %v, want one at the rendered operator (nodepool.yaml:19)", got)
	}
}

// A chart that cannot be rendered is a KRP006 at the file and line Helm names, never a
// panic or a silent skip: a template error, a dependency missing from charts/ (nothing is
// fetched).
func TestHelmChartProblems(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "--region", "eastus", "testdata/helm/broken", "testdata/helm/missingdep")
	sameLines(t, out.brief(), []string{
		"testdata/helm/broken/templates/pool.yaml:5 KRP006 ",
		"testdata/helm/missingdep/Chart.yaml:5 KRP006 ",
	})
	// A Chart.yaml that is not YAML is a KRP006 at its line.
	chart := t.TempDir()
	if err := os.WriteFile(chart+"/Chart.yaml", []byte("apiVersion: v2\nname: [x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out = runJSON(t, "", ExitFindings, "--allow-outside-root", chart)
	if len(out.Findings) != 1 || out.Findings[0].Code != "KRP006" || !strings.HasSuffix(out.Findings[0].File, "Chart.yaml") || out.Findings[0].Line < 2 {
		t.Errorf("broken Chart.yaml: %+v", out.Findings)
	}
	// A values file that is not YAML stops the review (exit 2), as a bad flag would.
	bad := t.TempDir() + "/values.yaml"
	if err := os.WriteFile(bad, []byte("a: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := run(t, "", "--helm-values", bad, "testdata/helm/pools"); r.code != ExitUsage && r.code != 2 {
		t.Errorf("exit %d for a broken values file: %s", r.code, r.stderr)
	}
}

// --no-helm reads a chart's files as they are: its templates are unrendered (KRP006).
func TestNoHelm(t *testing.T) {
	out := runJSON(t, "", ExitFindings, "--region", "eastus", "--no-helm", "testdata/helm/pools")
	n := 0
	for _, f := range out.Findings {
		if f.Code == "KRP006" {
			n++
		}
	}
	if n == 0 || len(out.Pools) != 0 {
		t.Errorf("findings %+v pools %+v, want the templates as KRP006 and no pool", out.Findings, out.Pools)
	}
}
