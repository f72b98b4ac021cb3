package source

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest/helmchart"
)

// StdinName is how findings name standard input.
const StdinName = "stdin"

// File is one input after parsing.
type File struct {
	Path string // as shown to the user
	Abs  string // "" for stdin
	// Objects are its NodePools and AKSNodeClasses, in document order.
	Objects []*Object
	// Findings are problems of the input itself (syntax, kinds, versions).
	Findings []Finding
	// Kust is set when the file is a kustomization.
	Kust *kustomization
	// Raw is the file's content (YAML only), parsed again when a kustomization names the file
	// as a patch.
	Raw []byte
	// planRegions are the regions of the plan's karpenter provider configurations, by key.
	planRegions map[string]string
	// planSelfHosted are the provider configuration keys whose cluster the plan sets to
	// self-hosted Karpenter (karpenter_aks_node_auto_provisioning with mode Manual).
	planSelfHosted map[string]bool
	// NotRead: the file was refused (outside the tree, not a regular file, over a limit).
	NotRead bool
}

// Providers are the provider configuration keys of a plan's objects, in order of appearance.
func (f *File) Providers() []string {
	var out []string
	for _, o := range f.Objects {
		if o.Provider != "" && !slices.Contains(out, o.Provider) {
			out = append(out, o.Provider)
		}
	}
	return out
}

// PlanRegion is the region of the provider configuration key, or with no key (the plan uses
// one configuration) of the configuration its objects use, else of the default one.
func (f *File) PlanRegion(key string) string {
	if key == "" {
		if ps := f.Providers(); len(ps) == 1 {
			key = ps[0]
		} else {
			key = DefaultProvider
		}
	}
	return f.planRegions[key]
}

// Loader reads and parses each file once, whether it was named on the command line, found in
// a directory, or pulled in by a kustomization.
type Loader struct {
	wd     string
	Config *config.Config
	Files  map[string]*File
	Order  []*File
	limits Limits
	// roots are the directories below which files are read (resolved); read counts the bytes.
	roots []string
	read  int64
	// Helm renders the charts met; charts are the files of each chart rendered, by directory.
	Helm   HelmOptions
	charts map[string][]*File
}

func NewLoader(cfg *config.Config, limits Limits) (*Loader, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	l := &Loader{wd: wd, Config: cfg, Files: map[string]*File{}, limits: limits, charts: map[string][]*File{}}
	l.addRoot(wd)
	if cfg != nil {
		l.addRoot(cfg.Dir)
	}
	return l, nil
}

// InputError is an input that cannot be read at all: the review stops with exit code 2.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Expand turns the command line's paths into files: a directory contributes its *.yaml,
// *.yml and *.json files and kustomizations, recursively, skipping hidden entries (.git) and
// what the config excludes; "-" is standard input.
func (l *Loader) Expand(paths []string, stdin io.Reader) ([]*File, error) {
	var out []*File
	// What the command line names is read: a file's directory, or the directory, is a root.
	for _, p := range append(append([]string(nil), paths...), l.Helm.ValuesFiles...) {
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
				return nil, &InputError{fmt.Errorf("reading standard input: %w", err)}
			}
			f := &File{Path: StdinName}
			if nr != nil {
				f.Findings, f.NotRead = []Finding{nr.Finding(StdinName)}, true
			} else {
				f = parseFile(StdinName, "", data)
			}
			l.Order = append(l.Order, f)
			out = append(out, f)
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, &InputError{err}
		}
		if !st.IsDir() && !st.Mode().IsRegular() {
			// Named on the command line: the user hears it at once (a FIFO would hang the read).
			return nil, &InputError{fmt.Errorf("%s is %s, not a regular file or directory; pipe its content to the review with - instead", p, config.FileKind(st.Mode()))}
		}
		if !st.IsDir() {
			f, err := l.Load(p)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return &InputError{err}
			}
			if path != p && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() && !l.Helm.Off && helmchart.IsChart(path) {
				// A chart is rendered as helm template renders it, not read file by file.
				if abs, err := filepath.Abs(path); err == nil && l.Config.Excluded(abs) {
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
			if abs, err := filepath.Abs(path); err == nil && l.Config.Excluded(abs) {
				return nil
			}
			f, err := l.Load(path)
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

// Load reads and parses a file once.
func (l *Loader) Load(path string) (*File, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &InputError{err}
	}
	if f, ok := l.Files[abs]; ok {
		return f, nil
	}
	data, nr, err := l.ReadFile(abs)
	if err != nil {
		return nil, &InputError{err}
	}
	var f *File
	if nr != nil {
		f = &File{Path: l.Display(abs), Abs: abs, NotRead: true, Findings: []Finding{nr.Finding(l.Display(abs))}}
	} else {
		f = parseFile(l.Display(abs), abs, data)
	}
	l.Files[abs] = f
	l.Order = append(l.Order, f)
	return f, nil
}

// Display shows paths below the working directory relative to it, as CI annotations and
// editors expect, and others absolute; always with forward slashes.
func (l *Loader) Display(abs string) string {
	if r, err := filepath.Rel(l.wd, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(abs)
}

// parseFile recognises a Terraform plan or a YAML (or JSON) stream and picks out the objects.
func parseFile(display, abs string, data []byte) *File {
	f := &File{Path: display, Abs: abs}
	if LooksLikePlan(data) {
		f.Objects, f.planRegions, f.Findings = ParsePlan(display, data)
		f.planSelfHosted = planSelfHosted(data)
		return f
	}
	// A kustomization is read whole; other files only as far as the review needs them, and
	// their bytes are kept in case a kustomization names them as a patch (kept documents
	// cost a hundred times their bytes: 8 MiB of tiny documents took 2 GB).
	docs, probs := parseStream(display, data, isKustomizationFile(filepath.Base(abs)))
	f.Findings = probs
	f.Raw = data
	if k, ok := AsKustomization(abs, docs); ok {
		f.Kust = k
		return f
	}
	for _, d := range docs {
		objs, probs := ObjectsOf(display, d)
		f.Objects = append(f.Objects, objs...)
		f.Findings = append(f.Findings, probs...)
	}
	return f
}

func IsDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// ByPath finds a loaded file by the path shown for it.
func (l *Loader) ByPath(display string) (*File, bool) {
	for _, f := range l.Order {
		if f.Path == display {
			return f, true
		}
	}
	return nil, false
}
