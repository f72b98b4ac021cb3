package providerdata

import (
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/connect"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/planstate"
)

// Data is shared by all resources of one provider instance.
type Data struct {
	// Region is the Azure region plan-time checks price and check against ("" = all regions).
	Region string
	// Checks configure the plan-time provisioning checks.
	Checks Checks
	// Clients are the Kubernetes and Azure connections, created on first use.
	Clients *connect.Clients
	// Plan is what resources learn from each other during a plan, stage by stage.
	Plan *planstate.Board
	// OwnCluster is the key (connect.ClusterKey) of the cluster the provider's kubernetes
	// block names by aks_cluster_id; "" when it connects otherwise (a kubeconfig, a host), so
	// that which cluster it reaches is not known.
	OwnCluster string
	// OwnAdmin is the provider's kubernetes.use_admin_credentials: how the AKS clusters of
	// its fleet are reached unless their cluster.use_admin_credentials says otherwise.
	OwnAdmin bool
	// OwnConnection says that the provider's kubernetes block (or the KUBE_* environment)
	// names a connection, by aks_cluster_id or otherwise.
	OwnConnection bool
	// Cluster is the cluster this Data is scoped to (ForCluster); zero for the provider's own.
	Cluster connect.Cluster

	solver *lazySolver
	// boards are the plan-time boards of the clusters resources name in `cluster`, by key;
	// shared by every Data scoped from the same provider configuration.
	boards *boards
	// own is the provider's own Data when this one is scoped to a cluster (nil: it is).
	own *Data
}

// New returns provider data over the given clients, with nothing planned yet.
func New(region string, clients *connect.Clients) *Data {
	return &Data{Region: region, Clients: clients, Plan: planstate.New(), solver: &lazySolver{}, boards: &boards{m: map[string]*planstate.Board{}}}
}
