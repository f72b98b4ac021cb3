package review

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest/helmchart"
)

// HelmOptions render the Helm charts a review meets (a directory with a Chart.yaml) as
// helm template does, instead of reading their templates as unrendered files (KRP006).
type HelmOptions struct {
	// ValuesFiles are values files (helm template -f), later ones winning; they are read
	// within the review's limits.
	ValuesFiles []string
	// Set are assignments (helm template --set key=value), applied after the files.
	Set []string
	// ReleaseName and Namespace default to helm template's ("release-name", "default").
	ReleaseName, Namespace string
	// Off reads charts file by file, as plain files (their templates are KRP006): rendering
	// runs the chart's template code, which on an untrusted tree may be made to take as much
	// CPU and memory as it likes.
	Off bool
}

// refusal carries a notRead through helmchart's reader.
type refusal struct{ n *notRead }

func (r refusal) Error() string { return r.n.msg }

// loadChart renders a chart directory: each template's output becomes a file of the review,
// named after the template, whose lines are those of `helm template --show-only` for it.
// A chart that cannot be rendered (a template error, a missing dependency, values that do
// not fit its schema) is a KRP006 at the file and line Helm names.
func (l *loader) loadChart(dir string) ([]*file, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, &inputError{err}
	}
	if fs, ok := l.charts[abs]; ok {
		return fs, nil
	}
	var out []*file
	files, refusals, err := helmchart.Load(abs, func(p string) ([]byte, error, error) {
		data, nr, err := l.readFile(p)
		if nr != nil {
			return nil, refusal{nr}, err
		}
		return data, nil, err
	})
	if err != nil {
		return nil, &inputError{err}
	}
	chartYAML := filepath.Join(abs, "Chart.yaml")
	chartFile := &file{path: l.display(chartYAML), abs: chartYAML}
	for _, r := range refusals {
		var rf refusal
		if errors.As(r, &rf) {
			chartFile.findings = append(chartFile.findings, rf.n.finding(chartFile.path))
		}
	}
	vals, err := l.helmValues()
	if err != nil {
		return nil, err
	}
	rendered, probs := helmchart.Render(abs, files, helmchart.Options{Values: vals, ReleaseName: l.helm.ReleaseName, Namespace: l.helm.Namespace})
	for _, p := range probs {
		chartFile.findings = append(chartFile.findings, fileFinding(findings.UnrenderedTemplate, Location{File: l.display(p.File), Line: p.Line},
			p.Message+"; the chart was not reviewed",
			"Fix the chart, or the values given with --helm-values and --helm-set: helm template fails the same way."))
	}
	if len(chartFile.findings) > 0 || len(rendered) == 0 {
		out = append(out, chartFile)
		l.order = append(l.order, chartFile)
	}
	for _, r := range rendered {
		f := parseFile(l.display(r.File), r.File, r.Text)
		out = append(out, f)
		l.order = append(l.order, f)
	}
	l.charts[abs] = out
	return out, nil
}

// helmValues merges the values given on the command line, read within the review's limits;
// each chart gets its own copy (rendering changes them).
func (l *loader) helmValues() (map[string]any, error) {
	var files []helmchart.ValuesFile
	for _, p := range l.helm.ValuesFiles {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, &inputError{err}
		}
		data, nr, err := l.readFile(abs)
		if err != nil {
			return nil, &inputError{fmt.Errorf("--helm-values %s: %w", p, err)}
		}
		if nr != nil {
			return nil, &inputError{fmt.Errorf("--helm-values %s: %s", p, nr.msg)}
		}
		files = append(files, helmchart.ValuesFile{Name: p, Data: data})
	}
	vals, err := helmchart.Values(files, l.helm.Set)
	if err != nil {
		return nil, &inputError{err}
	}
	return vals, nil
}
