package connect

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	awsclient "github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/aws"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

// A fleet is one provider configuration managing many clusters. Resources name their cluster
// in the `cluster` attribute (an AKS resource ID or an EKS cluster ARN). Each cluster gets its
// own Clients, built on first use and shared by every resource of that cluster. So its API
// server sees one rate limiter, and the provider connects to it once, however many resources
// Terraform runs at once (-parallelism). Clusters connect independently: one that cannot be
// reached fails only its own resources.
type fleet struct {
	mu       sync.Mutex
	clusters map[string]*Clients
	// connect reaches one cluster (SetClusterConnector).
	connect func(ctx context.Context, cl Cluster) (kube.Connection, error)
}

// Cluster names a cluster of the fleet: exactly one of AKSClusterID and EKSClusterARN is set.
type Cluster struct {
	// AKSClusterID is the cluster's AKS resource ID.
	AKSClusterID string
	// EKSClusterARN is the cluster's EKS ARN.
	EKSClusterARN string
	// Admin reaches an AKS cluster with its local admin credentials instead of Entra ID.
	Admin bool
	// Name labels it in errors ("" = the ID alone).
	Name string
}

// ID is the cluster's AKS resource ID or EKS ARN.
func (c Cluster) ID() string {
	if c.EKSClusterARN != "" {
		return c.EKSClusterARN
	}
	return c.AKSClusterID
}

// Label is how errors name the cluster.
func (c Cluster) Label() string {
	if c.Name == "" {
		return c.ID()
	}
	return fmt.Sprintf("%q (%s)", c.Name, c.ID())
}

// ClusterKey is the key that identifies the cluster an AKS resource ID or an EKS ARN names.
// ARM IDs are case-insensitive, so "/subscriptions/S/resourceGroups/RG/..." and its lower-case
// spelling are one cluster; ARNs are not (EKS cluster names are case-sensitive). An ID that
// does not parse is its own key (an AKS one lower-cased).
func ClusterKey(id string) string {
	if strings.HasPrefix(id, "arn:") {
		if a, err := awsclient.ParseClusterARN(id); err == nil {
			return a.String()
		}
		return id
	}
	if c, err := azure.ParseClusterID(id); err == nil {
		return strings.ToLower(c.String())
	}
	return strings.ToLower(strings.TrimRight(id, "/"))
}

// poolKey is the key of a cluster's clients: its credentials are part of it, since an AKS
// cluster's admin and Entra ID clients are different users.
func (c Cluster) poolKey() string {
	k := ClusterKey(c.ID())
	if c.Admin {
		k += "#admin"
	}
	return k
}

// SetClusterConnector sets how a cluster of the fleet is reached; the provider resolves AKS
// clusters through the Azure API with its `azure` credentials and EKS clusters through the
// EKS API with its `aws` ones.
func (c *Clients) SetClusterConnector(fn func(ctx context.Context, cl Cluster) (kube.Connection, error)) {
	c.fleet.mu.Lock()
	defer c.fleet.mu.Unlock()
	c.fleet.connect = fn
}

// ForCluster returns the clients of the cluster cl, created (not connected: that happens on
// their first use) on the first call for its key and the same ones afterwards. Their errors
// name the cluster.
func (c *Clients) ForCluster(cl Cluster) *Clients {
	f := c.fleet
	key := cl.poolKey()
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
		aws:                c.aws,
		fleet:              f,
		connect: func(ctx context.Context) (kube.Connection, error) {
			conn, err := f.reach(ctx, cl)
			if err != nil {
				return kube.Connection{}, fmt.Errorf("cluster %s: %w", label, err)
			}
			return conn, nil
		},
	}
	f.clusters[key] = cc
	return cc
}

func (f *fleet) reach(ctx context.Context, cl Cluster) (kube.Connection, error) {
	f.mu.Lock()
	connect := f.connect
	f.mu.Unlock()
	if connect == nil {
		return kube.Connection{}, errors.New("the provider cannot reach the clusters resources name in their cluster attribute (no cluster connector configured)")
	}
	if cl.EKSClusterARN != "" {
		if _, err := awsclient.ParseClusterARN(cl.EKSClusterARN); err != nil {
			return kube.Connection{}, fmt.Errorf("eks_cluster_arn %q: %w", cl.EKSClusterARN, err)
		}
		return connect(ctx, cl)
	}
	if _, err := azure.ParseClusterID(cl.AKSClusterID); err != nil {
		return kube.Connection{}, fmt.Errorf("aks_cluster_id %q: %w", cl.AKSClusterID, err)
	}
	return connect(ctx, cl)
}
