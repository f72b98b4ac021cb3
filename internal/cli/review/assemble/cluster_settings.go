package assemble

import (
	"slices"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// PlanSelfHosted reports whether a plan of the cluster sets it to self-hosted Karpenter.
func (m *membership) PlanSelfHosted(name string) bool {
	for _, f := range m.l.Order {
		if m.files[name][f] && f.PlanIsSelfHosted(m.provider[name][f]) {
			return true
		}
	}
	return false
}

func (m *membership) ClustersOfFile(f *source.File) []string {
	var out []string
	for _, c := range m.Clusters {
		if m.files[c][f] {
			out = append(out, c)
		}
	}
	return out
}

// ClusterRegion: the cluster's own region in the config, else the region the plan's provider
// configuration sets (what the provider checks at plan time; for a cluster split by provider
// configuration, this comes first), else --region, else the config's default. A plan region the catalog does not know is reported (KRP114), as the
// provider reports it at plan time.
func ClusterRegion(cfg *config.Config, name string, m *membership, flag string) (string, []source.Finding) {
	// A cluster split from a plan by provider configuration has its configuration's region,
	// which says more than the region of the cluster it was split from.
	_, split := m.parent[name]
	if cl := cfg.Cluster(m.ConfigName(name)); cl != nil && cl.Region != "" && !split {
		return cl.Region, nil
	}
	var out []source.Finding
	for _, f := range m.l.Order {
		key := m.provider[name][f]
		region := f.PlanRegion(key)
		if !m.files[name][f] || region == "" {
			continue
		}
		r, err := config.NormalizeRegion(region)
		if err == nil {
			return r, out
		}
		if key == "" {
			key = source.DefaultProvider
		}
		out = append(out, source.FileFinding(findings.UnknownRegion, source.Location{File: f.Path, Attribute: "provider." + key + ".region"},
			err.Error()+" in the plan's provider configuration", "Set region in the karpenter provider block to the region's ARM name, e.g. westeurope."))
	}
	if cl := cfg.Cluster(m.ConfigName(name)); cl != nil && cl.Region != "" {
		return cl.Region, out
	}
	if flag != "" {
		return flag, out
	}
	if cfg != nil {
		return cfg.Region, out
	}
	return "", out
}

func ExternalNodeClasses(cfg *config.Config, name string) []string {
	if cfg == nil {
		return nil
	}
	out := slices.Clone(cfg.ExternalNodeClasses)
	if cl := cfg.Cluster(name); cl != nil {
		out = append(out, cl.ExternalNodeClasses...)
	}
	return out
}

// ClassByRegion gives the converted pools whose cloud nothing in them said (classGuessed) the
// node class of the cloud the cluster's region belongs to, when only one cloud has it: a
// v1beta1 EKS pool reviewed with --region us-east-1 is an EKS pool.
func ClassByRegion(c *Cluster) {
	var owner cloud.Cloud
	for _, cl := range analysis.Builtin().All() {
		if c.Region == "" || !cl.HasRegion(c.Region) {
			continue
		}
		if owner != nil {
			return
		}
		owner = cl
	}
	if owner == nil || owner == analysis.Builtin().Default() {
		return
	}
	gk := owner.NodeClassKinds()[0]
	for i, p := range c.NodePools {
		if !p.ClassGuessed {
			continue
		}
		p = p.Clone()
		if ref, ok := p.Get("spec", "template", "spec", "nodeClassRef").(map[string]any); ok {
			ref["group"], ref["kind"] = gk.Group, gk.Kind
		}
		p.ClassGuessed = false
		c.NodePools[i] = p
	}
}
