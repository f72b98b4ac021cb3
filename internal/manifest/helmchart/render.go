package helmchart

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/releaseutil"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
)

// Options of a rendering.
type Options struct {
	// ReleaseName and Namespace are those of helm template without arguments when empty
	// ("release-name", "default").
	ReleaseName, Namespace string
	// Values are the merged values given on the command line (Values).
	Values map[string]any
}

// Rendered is the output of one template file, exactly as
// `helm template --show-only <template>` prints it: each of its documents after a --- line and
// a # Source comment. So the lines of findings about it are lines of that output.
type Rendered struct {
	Source string // the template as Helm names it: mychart/templates/pool.yaml
	File   string // the template file (absolute)
	Text   []byte
}

// Problem is why a chart could not be rendered, at the file (absolute) and line it names.
type Problem struct {
	File    string
	Line    int
	Message string
}

// Render renders a chart directory's files as helm template does: the steps of Helm's
// action.Install in client-only dry-run mode.
//   - The chart is loaded and checked installable.
//   - Its dependencies come from charts/; a declared one missing there is a problem, since
//     nothing is fetched.
//   - The chart's kubeVersion is checked.
//   - Values are coalesced with the chart's and validated against values.schema.json.
//   - The dependencies' conditions, tags and import-values are applied.
//   - The templates are rendered with the default capabilities, NOTES.txt left out.
//   - The manifests are sorted and split as Helm does, hooks included.
//
// A panic inside Helm on a malformed chart is a problem of the chart, not a crash.
func Render(dir string, files Files, opts Options) (out []Rendered, probs []Problem) {
	defer func() {
		if p := recover(); p != nil {
			out, probs = nil, []Problem{{File: filepath.Join(dir, "Chart.yaml"), Line: 1, Message: fmt.Sprintf("Helm failed on this chart: %v", p)}}
		}
	}()
	return renderChart(dir, files, opts)
}

func renderChart(dir string, files Files, opts Options) ([]Rendered, []Problem) {
	chartYAML := filepath.Join(dir, "Chart.yaml")
	at := func(file string, line int, format string, args ...any) []Problem {
		return []Problem{{File: file, Line: line, Message: fmt.Sprintf(format, args...)}}
	}
	ch, err := loader.LoadFiles(files)
	if err != nil {
		return nil, at(chartYAML, yamlLine(err.Error()), "the chart cannot be loaded: %v", err)
	}
	if probs := missingDependencies(ch, files, chartYAML); len(probs) > 0 {
		return nil, probs
	}
	if t := ch.Metadata.Type; t != "" && t != "application" {
		return nil, at(chartYAML, 1, "the chart is of type %s, which helm template does not install", t)
	}
	caps := chartutil.DefaultCapabilities.Copy()
	if kv := ch.Metadata.KubeVersion; kv != "" && !chartutil.IsCompatibleRange(kv, caps.KubeVersion.String()) {
		return nil, at(chartYAML, 1, "the chart requires kubeVersion %s, which is incompatible with Kubernetes %s (helm template's default)", kv, caps.KubeVersion.String())
	}
	vals := opts.Values
	if vals == nil {
		vals = map[string]any{}
	}
	if err := chartutil.ProcessDependenciesWithMerge(ch, vals); err != nil {
		return nil, at(chartYAML, 1, "the chart's dependencies cannot be processed: %v", err)
	}
	rel := chartutil.ReleaseOptions{Name: opts.ReleaseName, Namespace: opts.Namespace, Revision: 1, IsInstall: true}
	if rel.Name == "" {
		rel.Name = "release-name"
	}
	if rel.Namespace == "" {
		rel.Namespace = "default"
	}
	render, err := chartutil.ToRenderValuesWithSchemaValidation(ch, vals, rel, caps, false)
	if err != nil {
		file := chartYAML
		if slices.ContainsFunc(files, func(f *loader.BufferedFile) bool { return f.Name == "values.schema.json" }) {
			file = filepath.Join(dir, "values.schema.json")
		}
		return nil, at(file, 1, "the values do not fit the chart: %v", err)
	}
	var e engine.Engine // no cluster: lookup returns nothing, as in helm template
	out, err := e.Render(ch, render)
	if err != nil {
		file, line := chartYAML, 1
		if m := templateAt.FindStringSubmatch(err.Error()); m != nil {
			file = templatePath(dir, m[1])
			line, _ = strconv.Atoi(m[2])
		}
		return nil, at(file, line, "the chart cannot be rendered: %v", err)
	}
	for name := range out {
		if strings.HasSuffix(name, "NOTES.txt") {
			delete(out, name)
		}
	}
	hooks, manifests, err := releaseutil.SortManifests(out, nil, releaseutil.InstallOrder)
	if err != nil {
		// Helm refuses the chart for output that is not YAML; the raw output of each template
		// lets the manifest reader say where.
		return raw(dir, out), nil
	}
	var order []string
	texts := map[string]*strings.Builder{}
	add := func(source, content string) {
		b, ok := texts[source]
		if !ok {
			b = &strings.Builder{}
			texts[source] = b
			order = append(order, source)
		}
		fmt.Fprintf(b, "---\n# Source: %s\n%s\n", source, content)
	}
	for _, m := range manifests {
		add(m.Name, m.Content)
	}
	for _, h := range hooks {
		add(h.Path, h.Manifest)
	}
	res := make([]Rendered, 0, len(order))
	for _, s := range order {
		res = append(res, Rendered{Source: s, File: templatePath(dir, s), Text: []byte(texts[s].String())})
	}
	return res, nil
}

// templateAt finds the template and line in an engine error: "template: c/templates/x.yaml:4:18:
// executing ...", "parse error at (c/templates/x.yaml:4): ...", "execution error at (...:3:11)".
var templateAt = regexp.MustCompile(`([A-Za-z0-9_.\-]+/(?:[^\s:()"]+/)*[^\s:()"]+):(\d+)`)

var yamlErrLine = regexp.MustCompile(`yaml: line (\d+)`)

func yamlLine(msg string) int {
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 1
}

// raw is each non-empty template output as helm template prints it.
func raw(dir string, out map[string]string) []Rendered {
	names := make([]string, 0, len(out))
	for n, c := range out {
		if strings.TrimSpace(c) != "" && !strings.HasPrefix(path.Base(n), "_") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	res := make([]Rendered, 0, len(names))
	for _, n := range names {
		res = append(res, Rendered{Source: n, File: templatePath(dir, n), Text: []byte(fmt.Sprintf("---\n# Source: %s\n%s\n", n, out[n]))})
	}
	return res
}

// missingDependencies are the dependencies Chart.yaml declares that charts/ does not hold
// (what helm template refuses with "found in Chart.yaml, but missing in charts/ directory"),
// each at its line: nothing is fetched.
func missingDependencies(ch *chart.Chart, files Files, chartYAML string) []Problem {
	var data []byte
	for _, f := range files {
		if f.Name == "Chart.yaml" {
			data = f.Data
		}
	}
	docs, _ := manifest.Read(chartYAML, data, manifest.Options{})
	var out []Problem
	for i, r := range ch.Metadata.Dependencies {
		if slices.ContainsFunc(ch.Dependencies(), func(d *chart.Chart) bool { return d.Name() == r.Name }) {
			continue
		}
		line := 1
		if len(docs) > 0 {
			if p, ok := docs[0].Fields.Lookup([]string{"dependencies", strconv.Itoa(i)}); ok {
				line = p.Line
			}
		}
		out = append(out, Problem{File: chartYAML, Line: line, Message: fmt.Sprintf(
			"dependency %s (%s %s) is declared in Chart.yaml but missing in charts/: the review renders charts offline and fetches nothing", r.Name, r.Repository, r.Version)})
	}
	return out
}
