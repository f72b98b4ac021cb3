package providerdata

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/connect"
)

func id(name string) string {
	return "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/" + name
}

// Each cluster has its own plan-time board, clients and region: what a node class of cluster
// A publishes is never read by a pool of cluster B. The provider's own cluster, named or not,
// is the provider's board.
func TestForClusterScopesBoardsAndRegion(t *testing.T) {
	d := New("westeurope", connect.New(nil))
	d.OwnCluster = connect.ClusterKey(id("own"))
	a := d.ForCluster(Target{AKSClusterID: id("a"), Region: "eastus"})
	a2 := d.ForCluster(Target{AKSClusterID: strings.ToUpper(id("a"))})
	b := d.ForCluster(Target{AKSClusterID: id("b")})
	own := d.ForCluster(Target{AKSClusterID: id("own")})
	if a.Plan != a2.Plan || a.Clients != a2.Clients {
		t.Error("two spellings of one cluster got different boards or clients")
	}
	if a.Plan == b.Plan || a.Plan == d.Plan || a.Clients == b.Clients || a.Clients == d.Clients {
		t.Error("clusters share a board or clients")
	}
	if own.Plan != d.Plan || own.Clients != d.Clients || d.ForCluster(Target{}).Plan != d.Plan {
		t.Error("the provider's own cluster did not get the provider's board and clients")
	}
	if a.Region != "eastus" || a2.Region != "westeurope" || b.Region != "westeurope" {
		t.Errorf("regions = %q, %q, %q; want the cluster's region, else the provider's", a.Region, a2.Region, b.Region)
	}
	a.Plan.NodeClasses().Planned("standard", nil, true, true)
	if !a2.Plan.NodePools().NodeClass("standard").Exists() || b.Plan.NodePools().NodeClass("standard").Exists() || d.Plan.NodePools().NodeClass("standard").Exists() {
		t.Error("a node class of cluster a is seen outside cluster a, or not in it")
	}
	// Clusters known only after apply share one board, apart from the known ones; a region known
	// only after apply makes the checks' results unknown.
	u := d.ForCluster(Target{IDUnknown: true, RegionUnknown: true})
	if u.Plan == d.Plan || u.Plan == a.Plan || u.Plan != d.ForCluster(Target{IDUnknown: true}).Plan || !slices.Contains(u.Checks.Unknown, "cluster.region") {
		t.Errorf("unknown cluster: board shared with a known cluster, or not with the other unknown ones, or checks.Unknown %v", u.Checks.Unknown)
	}
	if _, err := u.Clients.Kube(context.Background()); err == nil || !strings.Contains(err.Error(), "known only after apply") {
		t.Errorf("clients of an unknown cluster connected: %v", err)
	}
	if slices.Contains(d.Checks.Unknown, "cluster.region") {
		t.Error("a resource's unknown region leaked into the provider's checks")
	}
}

// A NAP resource's grants vouch for the node classes of its own cluster; when the provider
// reaches its cluster by a kubeconfig (which cluster it is is unknown), also for the
// provider's own.
func TestBoardsOfCluster(t *testing.T) {
	d := New("", connect.New(nil))
	a := d.ForCluster(Target{AKSClusterID: id("a")})
	if got := d.BoardsOfCluster(id("a")); len(got) != 2 || got[0] != a.Plan || got[1] != d.Plan {
		t.Errorf("kubeconfig provider: boards of a = %v, want a's and the provider's", got)
	}
	d.OwnCluster = connect.ClusterKey(id("own"))
	if got := d.BoardsOfCluster(id("a")); len(got) != 1 || got[0] != a.Plan {
		t.Errorf("provider of cluster own: boards of a = %v, want a's only", got)
	}
	if got := a.BoardsOfCluster(id("own")); len(got) != 1 || got[0] != d.Plan {
		t.Errorf("boards of the provider's own cluster = %v, want the provider's", got)
	}
}

// The NAP resource checks the CRDs of its cluster_id's cluster: through the provider's own
// connection when that names the cluster or a connection of its own (a kubeconfig), else
// through the fleet's pooled clients of that cluster.
func TestKubeOf(t *testing.T) {
	d := New("", connect.New(nil))
	if got := d.KubeOf(id("a")); got != d.ForCluster(Target{AKSClusterID: id("a")}).Clients {
		t.Error("provider without a connection: the NAP resource of cluster a does not use a's clients")
	}
	d.OwnConnection = true // a kubeconfig
	if d.KubeOf(id("a")) != d.Clients {
		t.Error("provider with a kubeconfig: the NAP resource does not use it, as before fleets")
	}
	d.OwnCluster = connect.ClusterKey(id("own"))
	if d.KubeOf(id("own")) != d.Clients || d.KubeOf(id("a")) == d.Clients {
		t.Error("provider of cluster own: the NAP resources do not use the clients of their own clusters")
	}
}

// EKS clusters named by ARN get their own boards and clients beside the AKS ones. An AKS
// cluster's admin credentials are other clients of the same cluster, on one board. Unset
// means the provider's choice. With the provider on admin credentials, a resource naming its
// own cluster with use_admin_credentials = false gets the Entra ID clients and the
// provider's board.
func TestForClusterEKSAndAdmin(t *testing.T) {
	const arnA, arnB = "arn:aws:eks:eu-west-1:123456789012:cluster/eks-a", "arn:aws:eks:us-east-1:123456789012:cluster/eks-b"
	d := New("westeurope", connect.New(nil))
	d.OwnCluster, d.OwnAdmin = connect.ClusterKey(id("own")), true
	ea, ea2, eb := d.ForCluster(Target{EKSClusterARN: arnA, Region: "eu-west-1"}), d.ForCluster(Target{EKSClusterARN: arnA}), d.ForCluster(Target{EKSClusterARN: arnB})
	if ea.Clients != ea2.Clients || ea.Plan != ea2.Plan || ea.Clients == eb.Clients || ea.Plan == eb.Plan || ea.Plan == d.Plan {
		t.Error("EKS clusters: one ARN got two boards or clients, or two ARNs share one")
	}
	if ea.Cluster.EKSClusterARN != arnA || ea.Cluster.Admin {
		t.Errorf("EKS cluster = %+v, want the ARN and no admin credentials (AKS only)", ea.Cluster)
	}
	no, yes := false, true
	entra, admin, dflt := d.ForCluster(Target{AKSClusterID: id("a"), Admin: &no}), d.ForCluster(Target{AKSClusterID: id("a"), Admin: &yes}), d.ForCluster(Target{AKSClusterID: id("a")})
	if entra.Clients == admin.Clients || entra.Plan != admin.Plan || dflt.Clients != admin.Clients || !admin.Cluster.Admin || entra.Cluster.Admin {
		t.Errorf("AKS cluster a: Entra ID and admin clients must differ and share the board; unset must be the provider's (admin)")
	}
	ownEntra := d.ForCluster(Target{AKSClusterID: id("own"), Admin: &no})
	if ownEntra.Clients == d.Clients || ownEntra.Plan != d.Plan || d.ForCluster(Target{AKSClusterID: id("own"), Admin: &yes}).Clients != d.Clients {
		t.Error("the provider's own cluster with other credentials: want other clients on the provider's board; with its own credentials, its clients")
	}
}
