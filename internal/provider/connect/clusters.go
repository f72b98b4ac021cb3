package connect

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

// A fleet is one provider configuration managing many clusters: resources name their cluster
// in the `cluster` attribute (an AKS resource ID), and each cluster gets its own Clients, built
// on first use and shared by every resource of that cluster, so that its API server sees one
// rate limiter and the provider connects to it once, however many resources Terraform runs
// at once (-parallelism). Clusters connect independently: one that cannot be reached fails
// only its own resources.
type fleet struct {
	mu       sync.Mutex
	clusters map[string]*Clients
	// connect reaches one cluster by its AKS resource ID (SetClusterConnector).
	connect func(ctx context.Context, id azure.ClusterID) (kube.Connection, error)
}

// Cluster names a cluster of the fleet.
type Cluster struct {
	// AKSClusterID is the cluster's AKS resource ID.
	AKSClusterID string
	// Name labels it in errors ("" = the ID alone).
	Name string
}

// Label is how errors name the cluster.
func (c Cluster) Label() string {
	if c.Name == "" {
		return c.AKSClusterID
	}
	return fmt.Sprintf("%q (%s)", c.Name, c.AKSClusterID)
}

// ClusterKey is the key that identifies the cluster an AKS resource ID names: ARM IDs are
// case-insensitive, so "/subscriptions/S/resourceGroups/RG/..." and its lower-case spelling are
// one cluster. An ID that does not parse is its own key, lower-cased.
func ClusterKey(id string) string {
	if c, err := azure.ParseClusterID(id); err == nil {
		return strings.ToLower(c.String())
	}
	return strings.ToLower(strings.TrimRight(id, "/"))
}

// SetClusterConnector sets how a cluster of the fleet is reached; the provider resolves it
// through the Azure API with its `azure` credentials.
func (c *Clients) SetClusterConnector(fn func(ctx context.Context, id azure.ClusterID) (kube.Connection, error)) {
	c.fleet.mu.Lock()
	defer c.fleet.mu.Unlock()
	c.fleet.connect = fn
}

// ForCluster returns the clients of the cluster cl, created (not connected: that happens on
// their first use) on the first call for its key and the same ones afterwards. Their errors
// name the cluster.
func (c *Clients) ForCluster(cl Cluster) *Clients {
	f := c.fleet
	key := ClusterKey(cl.AKSClusterID)
	f.mu.Lock()
	defer f.mu.Unlock()
	if cc, ok := f.clusters[key]; ok {
		return cc
	}
	if f.clusters == nil {
		f.clusters = map[string]*Clients{}
	}
	label := cl.Label()
	cc := &Clients{
		DeletePollInterval: c.DeletePollInterval,
		AzurePollInterval:  c.AzurePollInterval,
		azure:              c.azure,
		fleet:              f,
		connect: func(ctx context.Context) (kube.Connection, error) {
			conn, err := f.reach(ctx, cl.AKSClusterID)
			if err != nil {
				return kube.Connection{}, fmt.Errorf("cluster %s: %w", label, err)
			}
			return conn, nil
		},
	}
	f.clusters[key] = cc
	return cc
}

func (f *fleet) reach(ctx context.Context, id string) (kube.Connection, error) {
	f.mu.Lock()
	connect := f.connect
	f.mu.Unlock()
	if connect == nil {
		return kube.Connection{}, errors.New("the provider cannot reach clusters by their AKS resource ID (no cluster connector configured)")
	}
	parsed, err := azure.ParseClusterID(id)
	if err != nil {
		return kube.Connection{}, fmt.Errorf("aks_cluster_id %q: %w", id, err)
	}
	return connect(ctx, parsed)
}
