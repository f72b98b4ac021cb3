package source

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

func (r refusal) Error() string { return r.n.Msg }

// loadChart renders a chart directory: each template's output becomes a file of the review,
// named after the template, whose lines are those of `helm template --show-only` for it.
// A chart that cannot be rendered (a template error, a missing dependency, values that do
// not fit its schema) is a KRP006 at the file and line Helm names.
func (l *Loader) loadChart(dir string) ([]*File, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, &InputError{err}
	}
	if fs, ok := l.charts[abs]; ok {
		return fs, nil
	}
	var out []*File
	files, refusals, err := helmchart.Load(abs, func(p string) ([]byte, error, error) {
		data, nr, err := l.ReadFile(p)
		if nr != nil {
			return nil, refusal{nr}, err
		}
		return data, nil, err
	})
	if err != nil {
		return nil, &InputError{err}
	}
	chartYAML := filepath.Join(abs, "Chart.yaml")
	chartFile := &File{Path: l.Display(chartYAML), Abs: chartYAML}
	for _, r := range refusals {
		var rf refusal
		if errors.As(r, &rf) {
			chartFile.Findings = append(chartFile.Findings, rf.n.Finding(chartFile.Path))
		}
	}
	vals, err := l.helmValues()
	if err != nil {
		return nil, err
	}
	rendered, probs := helmchart.Render(abs, files, helmchart.Options{Values: vals, ReleaseName: l.Helm.ReleaseName, Namespace: l.Helm.Namespace})
	for _, p := range probs {
		chartFile.Findings = append(chartFile.Findings, FileFinding(findings.UnrenderedTemplate, Location{File: l.Display(p.File), Line: p.Line},
			p.Message+"; the chart was not reviewed",
			"Fix the chart, or the values given with --helm-values and --helm-set: helm template fails the same way."))
	}
	if len(chartFile.Findings) > 0 || len(rendered) == 0 {
		out = append(out, chartFile)
		l.Order = append(l.Order, chartFile)
	}
	for _, r := range rendered {
		f := parseFile(l.Display(r.File), r.File, r.Text)
		out = append(out, f)
		l.Order = append(l.Order, f)
	}
	l.charts[abs] = out
	return out, nil
}

// helmValues merges the values given on the command line, read within the review's limits;
// each chart gets its own copy (rendering changes them).
func (l *Loader) helmValues() (map[string]any, error) {
	var files []helmchart.ValuesFile
	for _, p := range l.Helm.ValuesFiles {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, &InputError{err}
		}
		data, nr, err := l.ReadFile(abs)
		if err != nil {
			return nil, &InputError{fmt.Errorf("--helm-values %s: %w", p, err)}
		}
		if nr != nil {
			return nil, &InputError{fmt.Errorf("--helm-values %s: %s", p, nr.Msg)}
		}
		files = append(files, helmchart.ValuesFile{Name: p, Data: data})
	}
	vals, err := helmchart.Values(files, l.Helm.Set)
	if err != nil {
		return nil, &InputError{err}
	}
	return vals, nil
}
