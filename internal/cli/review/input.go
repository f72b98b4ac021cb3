package review

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest/helmchart"
)

// StdinName is how findings name standard input.
const StdinName = "stdin"

// file is one input after parsing.
type file struct {
	path string // as shown to the user
	abs  string // "" for stdin
	// objects are its NodePools and AKSNodeClasses, in document order.
	objects []*Object
	// findings are problems of the input itself (syntax, kinds, versions).
	findings []Finding
	// kust is set when the file is a kustomization.
	kust *kustomization
	// raw is the file's content (YAML only), parsed again when a kustomization names the file
	// as a patch.
	raw []byte
	// planRegions are the regions of the plan's karpenter provider configurations, by key.
	planRegions map[string]string
	// planSelfHosted are the provider configuration keys whose cluster the plan sets to
	// self-hosted Karpenter (karpenter_aks_node_auto_provisioning with mode Manual).
	planSelfHosted map[string]bool
	// notRead: the file was refused (outside the tree, not a regular file, over a limit).
	notRead bool
}

// providers are the provider configuration keys of a plan's objects, in order of appearance.
func (f *file) providers() []string {
	var out []string
	for _, o := range f.objects {
		if o.Provider != "" && !slices.Contains(out, o.Provider) {
			out = append(out, o.Provider)
		}
	}
	return out
}

// planRegion is the region of the provider configuration key, or with no key (the plan uses
// one configuration) of the configuration its objects use, else of the default one.
func (f *file) planRegion(key string) string {
	if key == "" {
		if ps := f.providers(); len(ps) == 1 {
			key = ps[0]
		} else {
			key = defaultProvider
		}
	}
	return f.planRegions[key]
}

// loader reads and parses each file once, whether it was named on the command line, found in
// a directory, or pulled in by a kustomization.
type loader struct {
	wd     string
	cfg    *Config
	files  map[string]*file
	order  []*file
	limits Limits
	// roots are the directories below which files are read (resolved); read counts the bytes.
	roots []string
	read  int64
	// helm renders the charts met; charts are the files of each chart rendered, by directory.
	helm   HelmOptions
	charts map[string][]*file
}

func newLoader(cfg *Config, limits Limits) (*loader, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	l := &loader{wd: wd, cfg: cfg, files: map[string]*file{}, limits: limits, charts: map[string][]*file{}}
	l.addRoot(wd)
	if cfg != nil {
		l.addRoot(cfg.dir)
	}
	return l, nil
}

// inputError is an input that cannot be read at all: the review stops with exit code 2.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// expand turns the command line's paths into files: a directory contributes its *.yaml,
// *.yml and *.json files and kustomizations, recursively, skipping hidden entries (.git) and
// what the config excludes; "-" is standard input.
func (l *loader) expand(paths []string, stdin io.Reader) ([]*file, error) {
	var out []*file
	// What the command line names is read: a file's directory, or the directory, is a root.
	for _, p := range append(append([]string(nil), paths...), l.helm.ValuesFiles...) {
		if p == "-" {
			continue
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			l.addRoot(p)
		} else {
			l.addRoot(filepath.Dir(p))
		}
	}
	for _, p := range paths {
		if p == "-" {
			data, nr, err := l.readStdin(stdin)
			if err != nil {
				return nil, &inputError{fmt.Errorf("reading standard input: %w", err)}
			}
			f := &file{path: StdinName}
			if nr != nil {
				f.findings, f.notRead = []Finding{nr.finding(StdinName)}, true
			} else {
				f = parseFile(StdinName, "", data)
			}
			l.order = append(l.order, f)
			out = append(out, f)
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, &inputError{err}
		}
		if !st.IsDir() && !st.Mode().IsRegular() {
			// Named on the command line: the user hears it at once (a FIFO would hang the read).
			return nil, &inputError{fmt.Errorf("%s is %s, not a regular file or directory; pipe its content to the review with - instead", p, fileKind(st.Mode()))}
		}
		if !st.IsDir() {
			f, err := l.load(p)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return &inputError{err}
			}
			if path != p && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() && !l.helm.Off && helmchart.IsChart(path) {
				// A chart is rendered as helm template renders it, not read file by file.
				if abs, err := filepath.Abs(path); err == nil && l.cfg.excluded(abs) {
					return filepath.SkipDir
				}
				fs, err := l.loadChart(path)
				if err != nil {
					return err
				}
				out = append(out, fs...)
				return filepath.SkipDir
			}
			if d.IsDir() || !reviewable(d.Name()) {
				return nil
			}
			if abs, err := filepath.Abs(path); err == nil && l.cfg.excluded(abs) {
				return nil
			}
			f, err := l.load(path)
			if err != nil {
				return err
			}
			out = append(out, f)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func reviewable(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return isKustomizationFile(name)
}

// load reads and parses a file once.
func (l *loader) load(path string) (*file, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &inputError{err}
	}
	if f, ok := l.files[abs]; ok {
		return f, nil
	}
	data, nr, err := l.readFile(abs)
	if err != nil {
		return nil, &inputError{err}
	}
	var f *file
	if nr != nil {
		f = &file{path: l.display(abs), abs: abs, notRead: true, findings: []Finding{nr.finding(l.display(abs))}}
	} else {
		f = parseFile(l.display(abs), abs, data)
	}
	l.files[abs] = f
	l.order = append(l.order, f)
	return f, nil
}

// display shows paths below the working directory relative to it, as CI annotations and
// editors expect, and others absolute; always with forward slashes.
func (l *loader) display(abs string) string {
	if r, err := filepath.Rel(l.wd, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(abs)
}

// parseFile recognises a Terraform plan or a YAML (or JSON) stream and picks out the objects.
func parseFile(display, abs string, data []byte) *file {
	f := &file{path: display, abs: abs}
	if looksLikePlan(data) {
		f.objects, f.planRegions, f.findings = parsePlan(display, data)
		f.planSelfHosted = planSelfHosted(data)
		return f
	}
	// A kustomization is read whole; other files only as far as the review needs them, and
	// their bytes are kept in case a kustomization names them as a patch (kept documents
	// cost a hundred times their bytes: 8 MiB of tiny documents took 2 GB).
	docs, probs := parseStream(display, data, isKustomizationFile(filepath.Base(abs)))
	f.findings = probs
	f.raw = data
	if k, ok := asKustomization(abs, docs); ok {
		f.kust = k
		return f
	}
	for _, d := range docs {
		objs, probs := objectsOf(display, d)
		f.objects = append(f.objects, objs...)
		f.findings = append(f.findings, probs...)
	}
	return f
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// byPath finds a loaded file by the path shown for it.
func (l *loader) byPath(display string) (*file, bool) {
	for _, f := range l.order {
		if f.path == display {
			return f, true
		}
	}
	return nil, false
}
