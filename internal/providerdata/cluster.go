package providerdata

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/connect"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/planstate"
)

// Target is a resource's `cluster` attribute: the cluster it is managed in, when not the
// provider's own.
type Target struct {
	// AKSClusterID is the cluster's AKS resource ID, or EKSClusterARN its EKS ARN; both ""
	// (and IDUnknown false) means the provider's own cluster.
	AKSClusterID  string
	EKSClusterARN string
	// IDUnknown says that the ID is known only after apply.
	IDUnknown bool
	// Admin, when set, says whether an AKS cluster is reached with its local admin
	// credentials; nil: as the provider's kubernetes.use_admin_credentials says.
	Admin *bool
	// Region overrides the provider's region for the resource's plan-time checks ("" = the
	// provider's); RegionUnknown says it is known only after apply.
	Region        string
	RegionUnknown bool
	// Name labels the cluster in diagnostics.
	Name string
}

// ID is the cluster's AKS resource ID or EKS ARN ("" = the provider's own).
func (t Target) ID() string {
	if t.EKSClusterARN != "" {
		return t.EKSClusterARN
	}
	return t.AKSClusterID
}

// unknownClusterKey is the board key of the clusters whose IDs are known only after apply; no
// AKS resource ID (which starts with "/subscriptions/") lower-cases to it.
const unknownClusterKey = "(known after apply)"

// boards are the plan-time boards of a fleet's clusters.
type boards struct {
	mu sync.Mutex
	m  map[string]*planstate.Board
}

func (b *boards) of(key string) *planstate.Board {
	b.mu.Lock()
	defer b.mu.Unlock()
	if bd, ok := b.m[key]; ok {
		return bd
	}
	bd := planstate.New()
	b.m[key] = bd
	return bd
}

// ForCluster is the provider data a resource with cluster attribute t sees. It holds the
// clients of that cluster (pooled per cluster, connected on first use) and its region. It
// holds its plan-time board, so that a pool is checked only against the node classes of its
// own cluster. A resource without the attribute, or naming the cluster the provider's
// kubernetes block names, gets the provider's own. Resources whose cluster ID is known only
// after apply (clusters created in the same run) share one board, since which cluster each
// is cannot be told yet. A node class of one of them may then vouch for a pool of another.
// A board of each would have every pool warn of a missing node class until the IDs are
// known. Their clients refuse to connect.
func (d *Data) ForCluster(t Target) *Data {
	own := d.root()
	out := own
	switch {
	case t.IDUnknown:
		c := *own
		c.own = own
		c.Clients = connect.New(unknownCluster)
		c.Clients.DeletePollInterval, c.Clients.AzurePollInterval = own.Clients.DeletePollInterval, own.Clients.AzurePollInterval
		c.Plan = own.boards.of(unknownClusterKey)
		c.Cluster = connect.Cluster{Name: t.Name}
		out = &c
	case t.ID() != "":
		admin := own.OwnAdmin
		if t.Admin != nil && t.EKSClusterARN == "" {
			admin = *t.Admin
		}
		key := connect.ClusterKey(t.ID())
		if key == own.OwnCluster && admin == own.OwnAdmin {
			break // the provider's own cluster, named explicitly
		}
		c := *own
		c.own = own
		c.Cluster = connect.Cluster{AKSClusterID: t.AKSClusterID, EKSClusterARN: t.EKSClusterARN, Admin: admin && t.EKSClusterARN == "", Name: t.Name}
		c.Clients = own.Clients.ForCluster(c.Cluster)
		c.Plan = own.boards.of(key)
		if key == own.OwnCluster {
			// Other credentials, the same cluster: its objects are the provider's own.
			c.Plan = own.Plan
		}
		out = &c
	}
	if t.Region == "" && !t.RegionUnknown {
		return out
	}
	c := *out
	c.own = own
	c.Region = t.Region
	if t.RegionUnknown {
		c.Checks.Unknown = append(slices.Clip(c.Checks.Unknown), "cluster.region")
	}
	return &c
}

// BoardsOfCluster are the boards where a resource acting on the AKS cluster id (the NAP
// resource's cluster_id) publishes. One is that cluster's. The other is the provider's own,
// when the provider reaches its cluster otherwise than by aks_cluster_id: that may be the
// same cluster.
func (d *Data) BoardsOfCluster(id string) []*planstate.Board {
	own := d.root()
	key := connect.ClusterKey(id)
	switch {
	case id == "" || key == own.OwnCluster:
		return []*planstate.Board{own.Plan}
	case own.OwnCluster == "":
		return []*planstate.Board{own.boards.of(key), own.Plan}
	default:
		return []*planstate.Board{own.boards.of(key)}
	}
}

// KubeOf are the Kubernetes clients of the AKS cluster id names (the NAP resource's
// cluster_id). They are the provider's own when its kubernetes block names that cluster. They
// are the provider's own too when the block names a connection of its own (a kubeconfig, a
// host), which is then taken to reach that cluster. Otherwise they are the pooled clients of
// that cluster, reached through the Azure API.
func (d *Data) KubeOf(id string) *connect.Clients {
	own := d.root()
	if id == "" || connect.ClusterKey(id) == own.OwnCluster || (own.OwnCluster == "" && own.OwnConnection) {
		return own.Clients
	}
	return own.Clients.ForCluster(connect.Cluster{AKSClusterID: id})
}

// root is the provider's own data, which every scoped Data is copied from.
func (d *Data) root() *Data {
	if d.own != nil {
		return d.own
	}
	return d
}

// unknownCluster is the connection of a cluster whose ID is known only after apply.
func unknownCluster(context.Context) (kube.Connection, error) {
	return kube.Connection{}, errors.New("the resource's cluster ID (cluster.aks_cluster_id or cluster.eks_cluster_arn) is known only after apply, so its cluster cannot be reached during this plan. " +
		"Plans of new resources do not need the cluster; to refresh existing ones, apply what the ID depends on first (e.g. with -target)")
}
