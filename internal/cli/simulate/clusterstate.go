package simulate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/client-go/dynamic"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// StateOptions say where the running cluster's state comes from: snapshot files (kubectl get
// -o yaml output) or a read-only listing through a kubeconfig.
type StateOptions struct {
	Files               []string
	Kubeconfig, Context string
	// Start is when the change is taken to be applied, for the budgets' schedules (zero: now).
	Start time.Time
}

func (o StateOptions) set() bool { return len(o.Files) > 0 || o.Kubeconfig != "" }

// loadState reads the cluster state the options name.
func loadState(ctx context.Context, o StateOptions) (*clusterstate.Snapshot, error) {
	if len(o.Files) > 0 && o.Kubeconfig != "" {
		return nil, errors.New("--cluster-state and --kubeconfig both name a cluster state: give one")
	}
	if len(o.Files) > 0 {
		snap, err := clusterstate.ReadFiles(o.Files)
		if err != nil {
			return nil, fmt.Errorf("--cluster-state: %w", err)
		}
		return snap, nil
	}
	cfg, err := kube.Connection{ConfigPath: o.Kubeconfig, ConfigContext: o.Context}.RESTConfig()
	if err != nil {
		return nil, fmt.Errorf("--kubeconfig: %w", err)
	}
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("--kubeconfig: %w", err)
	}
	snap, err := clusterstate.List(ctx, client)
	if err != nil {
		return nil, fmt.Errorf("reading the cluster (get and list on %s are needed): %w", resourceNames(), err)
	}
	return snap, nil
}

func resourceNames() string {
	var out string
	for i, r := range clusterstate.Resources() {
		if i > 0 {
			out += ", "
		}
		out += r.Resource
		if r.Group != "" {
			out += "." + r.Group
		}
	}
	return out
}

// ClusterDrift is what the change does to the running cluster's NodeClaims: which drift, and
// at what pace Karpenter replaces them.
type ClusterDrift struct {
	State  string                  `json:"state"`
	Result *simulation.DriftResult `json:"-"`
	Pools  []simulation.PoolDrift  `json:"-"`
}

// driftOf judges the cluster state against the change.
func driftOf(ctx context.Context, snap *clusterstate.Snapshot, in simulation.Input, start time.Time) (*ClusterDrift, error) {
	res, err := simulation.Drift(ctx, newAnalyzer(), snap, in)
	if err != nil {
		return nil, err
	}
	if start.IsZero() {
		start = time.Now().UTC()
	}
	return &ClusterDrift{State: snap.Counts(), Result: res, Pools: res.Impact(snap, start)}, nil
}

// driftFindings are simulation.DriftFindings on the input's NodePools, where they were read.
func driftFindings(c *assemble.Cluster, d *ClusterDrift) []source.Finding {
	var out []source.Finding
	for _, f := range simulation.DriftFindings(d.Pools) {
		loc := source.Location{Field: f.Path}
		for _, p := range c.NodePools {
			if "NodePool/"+p.Name == f.Object {
				loc.File, loc.Line, loc.Address = p.Source.File, p.Source.Line, p.Source.Address
			}
		}
		out = append(out, source.Finding{Finding: f, Location: loc, Cluster: c.Name})
	}
	return out
}
