package review

import (
	"cmp"
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/fleet"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
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
	Checks []checks.Check
	// Facts describe each NodePool in the summary; nil means DefaultFacts().
	Facts []checks.FactFunc
	// Limits bound what is read; the zero value is the defaults.
	Limits source.Limits
	// AllowTemplates reports unrendered templates (KRP006) as notes instead of errors.
	AllowTemplates bool
	// Helm renders the Helm charts met in the paths (directories with a Chart.yaml).
	Helm source.HelmOptions
	// Analyzer analyses the pools against the embedded catalogs; nil means the process's
	// (clitool.Analyzer). Whatever else the run analyses or simulates uses the same one, so
	// each region's instance types are derived once.
	Analyzer *analysis.Analyzer

	// noFleet leaves out the fleet view and the group comparison (fleet/fleet.go): reviews run only
	// to read a baseline's or the workloads' objects need neither.
	noFleet bool
}

// IsInputError reports whether err means an input or the config could not be read at all
// (exit code 2), as opposed to a defect.
func IsInputError(err error) bool {
	var ie *source.InputError
	return errors.As(err, &ie)
}

// analyzer is the analyzer the review and its costs use.
func (o Options) analyzer() *analysis.Analyzer {
	if o.Analyzer != nil {
		return o.Analyzer
	}
	return clitool.Analyzer()
}

// Review loads the inputs, runs the checks on every cluster and returns the findings. An
// error means an input or the config file could not be read at all; everything else,
// malformed documents included, is a finding.
func Review(ctx context.Context, opts Options) (*report.Report, error) {
	ld, err := Load(opts, false)
	if err != nil {
		return nil, err
	}
	return ld.Review(ctx, opts), nil
}

// Review runs the checks of opts on every loaded cluster and returns the report.
func (ld *Loaded) Review(ctx context.Context, opts Options) *report.Report {
	ctx = checks.WithProvisioning(ctx, opts.analyzer())
	toRun := opts.Checks
	if toRun == nil {
		toRun = checks.DefaultChecks()
	}
	facts := opts.Facts
	if facts == nil {
		facts = checks.DefaultFacts()
	}
	rep := &report.Report{Config: ld.Config, Files: ld.Files}
	all := append([]source.Finding(nil), ld.inputFindings...)
	clusters := make([]*assemble.Cluster, 0, len(ld.Clusters))
	for _, lc := range ld.Clusters {
		c := lc.Cluster
		all = append(all, lc.problems...)
		for _, check := range toRun {
			all = append(all, inCluster(c.Name, check(ctx, c))...)
		}
		all = append(all, lc.documentProblems...)
		clusters = append(clusters, c)
		rep.Clusters = append(rep.Clusters, report.ClusterSummary{Name: c.Name, Region: c.Region, NodePools: len(c.NodePools), NodeClasses: len(c.NodeClasses), EC2NodeClasses: checks.CountEC2NodeClasses(c)})
		rep.Objects += len(c.NodePools) + len(c.NodeClasses) + len(c.NodeOverlays)
	}
	if !opts.noFleet {
		all = append(all, fleet.FleetDrift(ld.cfg, clusters)...)
		rep.Fleet = fleet.FleetOf(ctx, ld.cfg, clusters)
	}
	rep.Skipped = ld.Skipped
	rep.Findings, rep.SuppressedFindings = finish(all, ld.cfg, opts)
	rep.Suppressed = len(rep.SuppressedFindings)
	rep.Pools = checks.Summarize(ctx, clusters, facts, rep.Findings)
	rep.CountFleet()
	return rep
}

func loadConfig(explicit string, paths []string) (*config.Config, error) {
	if explicit != "" {
		return config.LoadConfig(explicit)
	}
	start := "."
	if paths[0] != "-" {
		start = paths[0]
		if !source.IsDir(start) {
			start = filepath.Dir(start)
		}
	}
	if p := config.FindConfig(start); p != "" {
		return config.LoadConfig(p)
	}
	return nil, nil
}

// clusterOrder lists clusters as the config file does, the default cluster last.
func clusterOrder(cfg *config.Config, names []string) []string {
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
func Finish(all []source.Finding, opts Options) (kept, suppressed []source.Finding, err error) {
	cfg, err := loadConfig(opts.ConfigPath, pathsOrDot(opts.Paths))
	if err != nil {
		return nil, nil, &source.InputError{Err: err}
	}
	kept, suppressed = finish(all, cfg, opts)
	return kept, suppressed, nil
}

func finish(all []source.Finding, cfg *config.Config, opts Options) ([]source.Finding, []source.Finding) {
	var suppressed []source.Finding
	type key struct {
		code                   findings.Code
		file, field, msg, objt string
		line, col              int
		address                string
	}
	index := map[key]int{}
	var out []source.Finding
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
	byPlace := func(a, b source.Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Address, b.Address), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Cluster, b.Cluster))
	}
	slices.SortStableFunc(out, byPlace)
	slices.SortStableFunc(suppressed, byPlace)
	return out, suppressed
}

func isSuppressed(f source.Finding, cfg *config.Config, flag []findings.Code) bool {
	if f.SuppressedHere || slices.Contains(flag, f.Code) {
		return true
	}
	if cfg == nil {
		return false
	}
	if slices.Contains(cfg.SuppressCodes, f.Code) {
		return true
	}
	cl := cfg.Cluster(f.Cluster)
	return cl != nil && slices.Contains(cl.SuppressCodes, f.Code)
}
