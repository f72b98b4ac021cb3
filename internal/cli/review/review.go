package review

import (
	"cmp"
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// Options configure one review.
type Options struct {
	// Paths are files, directories and "-" (standard input); none means the working directory.
	Paths []string
	Stdin io.Reader
	// ConfigPath is the config file; "" looks for one upward from the first input.
	ConfigPath string
	// Region applies to clusters whose config and plan name none.
	Region string
	// Strict turns warnings into errors.
	Strict bool
	// Suppress drops findings of these codes everywhere.
	Suppress []findings.Code
	// Checks run on every cluster; nil means DefaultChecks().
	Checks []Check
	// Facts describe each NodePool in the summary; nil means DefaultFacts().
	Facts []FactFunc
	// Visit, when set, is called for each cluster after its checks with the cluster's other
	// Kubernetes objects (Deployments, Jobs, ...), patched as Kustomize would: commands that
	// build on the review (simulate, review --workloads) read workloads from them.
	Visit func(c *Cluster, docs []workload.Document)
	// Limits bound what is read; the zero value is the defaults.
	Limits Limits
	// AllowTemplates reports unrendered templates (KRP006) as notes instead of errors.
	AllowTemplates bool
	// Helm renders the Helm charts met in the paths (directories with a Chart.yaml).
	Helm HelmOptions

	// noFleet leaves out the fleet view and the group comparison (fleet.go): reviews run only
	// to read a baseline's or the workloads' objects need neither.
	noFleet bool
}

// IsInputError reports whether err means an input or the config could not be read at all
// (exit code 2), as opposed to a defect.
func IsInputError(err error) bool {
	var ie *inputError
	return errors.As(err, &ie)
}

// Review loads the inputs, runs the checks on every cluster and returns the findings. An
// error means an input or the config file could not be read at all; everything else,
// malformed documents included, is a finding.
func Review(ctx context.Context, opts Options) (*Report, error) {
	ctx = withProvisioning(ctx)
	paths := opts.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	region, err := NormalizeRegion(opts.Region)
	if err != nil {
		return nil, &inputError{err}
	}
	cfg, err := loadConfig(opts.ConfigPath, paths)
	if err != nil {
		return nil, &inputError{err}
	}
	l, err := newLoader(cfg, opts.Limits)
	if err != nil {
		return nil, err
	}
	l.helm = opts.Helm
	inputs, err := l.expand(paths, opts.Stdin)
	if err != nil {
		return nil, err
	}
	m := newMembership(l)
	if err := m.assign(inputs); err != nil {
		return nil, err
	}
	checks := opts.Checks
	if checks == nil {
		checks = DefaultChecks()
	}
	facts := opts.Facts
	if facts == nil {
		facts = DefaultFacts()
	}

	rep := &Report{}
	for _, f := range l.order {
		if !f.notRead {
			rep.Files++
		}
	}
	if cfg != nil {
		rep.Config = l.display(filepath.Join(cfg.dir, filepath.Base(cfg.path)))
	}
	var all []Finding
	for _, f := range l.order {
		cs := m.clustersOfFile(f)
		for _, fd := range f.findings {
			if len(cs) == 1 {
				fd.Cluster = cs[0]
			}
			all = append(all, fd)
		}
	}
	var clusters []*Cluster
	for _, name := range clusterOrder(cfg, m.clusters) {
		c, dups := m.build(name)
		var regionProblems []Finding
		c.Region, regionProblems = clusterRegion(cfg, name, m, region)
		classByRegion(c)
		dups = append(dups, regionProblems...)
		c.ExternalNodeClasses = externalNodeClasses(cfg, m.configName(name))
		c.SelfHosted = cfg.selfHosted(m.configName(name)) || m.planSelfHosted(name)
		c.Target = clusterTarget(cfg, m.configName(name))
		for _, d := range dups {
			d.Cluster = name
			all = append(all, d)
		}
		for _, check := range checks {
			for _, fd := range check(ctx, c) {
				fd.Cluster = name
				all = append(all, fd)
			}
		}
		if opts.Visit != nil {
			docs, probs := m.documents(name)
			for _, d := range probs {
				d.Cluster = name
				all = append(all, d)
			}
			opts.Visit(c, docs)
		}
		clusters = append(clusters, c)
		rep.Clusters = append(rep.Clusters, ClusterSummary{Name: name, Region: c.Region, NodePools: len(c.NodePools), NodeClasses: len(c.NodeClasses), EC2NodeClasses: countEC2NodeClasses(c)})
		rep.objects += len(c.NodePools) + len(c.NodeClasses) + len(c.NodeOverlays)
	}
	if !opts.noFleet {
		all = append(all, fleetDrift(cfg, clusters)...)
		rep.Fleet = fleetOf(ctx, cfg, clusters)
	}
	rep.Skipped = m.skipped
	rep.Findings, rep.SuppressedFindings = finish(all, cfg, opts)
	rep.Suppressed = len(rep.SuppressedFindings)
	rep.Pools = summarize(ctx, clusters, facts, rep.Findings)
	rep.countFleet()
	return rep, nil
}

func loadConfig(explicit string, paths []string) (*Config, error) {
	if explicit != "" {
		return LoadConfig(explicit)
	}
	start := "."
	if paths[0] != "-" {
		start = paths[0]
		if !isDir(start) {
			start = filepath.Dir(start)
		}
	}
	if p := FindConfig(start); p != "" {
		return LoadConfig(p)
	}
	return nil, nil
}

// clusterOrder lists clusters as the config file does, the default cluster last.
func clusterOrder(cfg *Config, names []string) []string {
	rank := func(n string) int {
		if n == "" {
			return 1 << 30
		}
		if cfg != nil {
			for i, c := range cfg.Clusters {
				if c.Name == n {
					return i
				}
			}
		}
		return 1 << 29
	}
	out := slices.Clone(names)
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(rank(a), rank(b)) })
	return out
}

// finish applies suppressions and --strict, merges the findings that several clusters share
// (a base included by several overlays), and sorts them by place.
// Finish applies what the review applies to its own findings to findings raised outside it
// (workloads, costs): the suppressions of opts and of the config file, --strict, and one finding
// for repeats. It returns the findings kept and those suppressed.
func Finish(all []Finding, opts Options) (kept, suppressed []Finding, err error) {
	cfg, err := loadConfig(opts.ConfigPath, pathsOrDot(opts.Paths))
	if err != nil {
		return nil, nil, &inputError{err}
	}
	kept, suppressed = finish(all, cfg, opts)
	return kept, suppressed, nil
}

func finish(all []Finding, cfg *Config, opts Options) ([]Finding, []Finding) {
	var suppressed []Finding
	type key struct {
		code                   findings.Code
		file, field, msg, objt string
		line, col              int
		address                string
	}
	index := map[key]int{}
	var out []Finding
	for _, f := range all {
		if isSuppressed(f, cfg, opts.Suppress) {
			suppressed = append(suppressed, f)
			continue
		}
		if opts.Strict {
			f.Finding = f.Finding.Strict()
		}
		if opts.AllowTemplates && f.Code == findings.UnrenderedTemplate {
			f.Finding = f.Finding.As(findings.Note)
		}
		k := key{f.Code, f.File, f.Field, f.Message, f.Object, f.Line, f.Column, f.Address}
		if i, ok := index[k]; ok {
			if f.Cluster != "" && !slices.Contains(strings.Split(out[i].Cluster, ", "), f.Cluster) {
				out[i].Cluster += ", " + f.Cluster
			}
			continue
		}
		index[k] = len(out)
		out = append(out, f)
	}
	byPlace := func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Address, b.Address), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Cluster, b.Cluster))
	}
	slices.SortStableFunc(out, byPlace)
	slices.SortStableFunc(suppressed, byPlace)
	return out, suppressed
}

func isSuppressed(f Finding, cfg *Config, flag []findings.Code) bool {
	if f.suppressedHere || slices.Contains(flag, f.Code) {
		return true
	}
	if cfg == nil {
		return false
	}
	if slices.Contains(cfg.suppress, f.Code) {
		return true
	}
	cl := cfg.cluster(f.Cluster)
	return cl != nil && slices.Contains(cl.suppress, f.Code)
}
