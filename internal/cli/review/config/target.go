package config

import (
	"fmt"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
)

// compileTargets reads the Karpenter release and feature gates of the config and of each
// cluster. A cluster that sets either replaces both of the top level's: a release and its
// gates describe one installation.
func (c *Config) compileTargets() error {
	t, err := analysis.ParseTarget(c.KarpenterVersion, c.FeatureGates)
	if err != nil {
		return fmt.Errorf("karpenterVersion/featureGates: %w", err)
	}
	c.target = t
	for i := range c.Clusters {
		cl := &c.Clusters[i]
		if cl.KarpenterVersion == "" && cl.FeatureGates == "" {
			continue
		}
		t, err := analysis.ParseTarget(cl.KarpenterVersion, cl.FeatureGates)
		if err != nil {
			return fmt.Errorf("cluster %s: karpenterVersion/featureGates: %w", cl.Name, err)
		}
		cl.target = &t
	}
	return nil
}

// ClusterTarget is the Karpenter a cluster of the config runs.
func ClusterTarget(cfg *Config, name string) analysis.Target {
	if cfg == nil {
		return analysis.Target{}
	}
	if cl := cfg.Cluster(name); cl != nil && cl.target != nil {
		return *cl.target
	}
	return cfg.target
}
