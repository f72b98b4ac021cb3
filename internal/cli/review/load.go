package review

import (
	"path/filepath"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// Loaded is what the first stages (config, source, assemble) make of the inputs: the
// clusters, and what reading them found. Review runs the checks on it; simulate and the cost
// prediction read the clusters' documents from it.
type Loaded struct {
	// Config is the config file used, as displayed; "" when none.
	Config string
	// Files counts the inputs read.
	Files int
	// Clusters are in the config's order, the default cluster last.
	Clusters []LoadedCluster
	// Skipped are the inputs, and parts of them, not followed.
	Skipped []assemble.Skipped

	cfg *config.Config
	// inputFindings are the inputs' own problems (syntax, kinds, limits), with the cluster of
	// a file that belongs to one.
	inputFindings []source.Finding
}

// LoadedCluster is one cluster, with what building it found.
type LoadedCluster struct {
	*assemble.Cluster
	// Documents are the cluster's other Kubernetes objects (Deployments, Jobs, ...), patched
	// as Kustomize would; read only when Load is asked for them.
	Documents []workload.Document

	// problems are its duplicate objects and its plans' region problems; documentProblems
	// are the problems of reading its documents.
	problems, documentProblems []source.Finding
}

// Load runs the stages before the checks: it reads the config and the inputs and assembles
// the clusters; with documents, each cluster's other documents too. An error means an input
// or the config file could not be read at all.
func Load(opts Options, documents bool) (*Loaded, error) {
	paths := pathsOrDot(opts.Paths)
	region, err := config.NormalizeRegion(opts.Region)
	if err != nil {
		return nil, &source.InputError{Err: err}
	}
	cfg, err := loadConfig(opts.ConfigPath, paths)
	if err != nil {
		return nil, &source.InputError{Err: err}
	}
	l, err := source.NewLoader(cfg, opts.Limits)
	if err != nil {
		return nil, err
	}
	l.Helm = opts.Helm
	inputs, err := l.Expand(paths, opts.Stdin)
	if err != nil {
		return nil, err
	}
	m := assemble.NewMembership(l)
	if err := m.Assign(inputs); err != nil {
		return nil, err
	}
	ld := &Loaded{cfg: cfg}
	for _, f := range l.Order {
		if !f.NotRead {
			ld.Files++
		}
	}
	if cfg != nil {
		ld.Config = l.Display(filepath.Join(cfg.Dir, filepath.Base(cfg.Path)))
	}
	for _, f := range l.Order {
		cs := m.ClustersOfFile(f)
		for _, fd := range f.Findings {
			if len(cs) == 1 {
				fd.Cluster = cs[0]
			}
			ld.inputFindings = append(ld.inputFindings, fd)
		}
	}
	for _, name := range clusterOrder(cfg, m.Clusters) {
		c, problems := m.Build(name)
		var regionProblems []source.Finding
		c.Region, regionProblems = assemble.ClusterRegion(cfg, name, m, region)
		assemble.ClassByRegion(c)
		c.ExternalNodeClasses = assemble.ExternalNodeClasses(cfg, m.ConfigName(name))
		c.SelfHosted = cfg.IsSelfHosted(m.ConfigName(name)) || m.PlanSelfHosted(name)
		c.Target = config.ClusterTarget(cfg, m.ConfigName(name))
		lc := LoadedCluster{Cluster: c, problems: inCluster(name, append(problems, regionProblems...))}
		if documents {
			var probs []source.Finding
			lc.Documents, probs = m.Documents(name)
			lc.documentProblems = inCluster(name, probs)
		}
		ld.Clusters = append(ld.Clusters, lc)
	}
	// Reading the documents withdraws the skips of patches that apply to a workload.
	ld.Skipped = m.Skipped
	return ld, nil
}

// inCluster sets the findings' cluster.
func inCluster(name string, fs []source.Finding) []source.Finding {
	for i := range fs {
		fs[i].Cluster = name
	}
	return fs
}
