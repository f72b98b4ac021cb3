package connect

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

func fleetID(name string) string {
	return "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg-fleet/providers/Microsoft.ContainerService/managedClusters/" + name
}

// Under `terraform apply -parallelism=50` every resource of a cluster asks for its client at
// once. The cluster is connected exactly once. Each cluster gets its own client, and so its
// own rate limiter. One spelling of the ID in another case is the same cluster. A cluster
// that cannot be reached fails only its own resources, named in the error. It is retried by
// the next caller rather than cached.
func TestForClusterPoolsConnectionsPerCluster(t *testing.T) {
	var mu sync.Mutex
	connects := map[string]int{}
	var broken atomic.Bool
	broken.Store(true)
	root := New(func(context.Context) (kube.Connection, error) {
		return kube.Connection{}, errors.New("the provider's own cluster is not used here")
	})
	root.SetClusterConnector(func(_ context.Context, cl Cluster) (kube.Connection, error) {
		id, err := azure.ParseClusterID(cl.AKSClusterID)
		if err != nil {
			return kube.Connection{}, err
		}
		name := strings.ToLower(id.Name) // the spelling of whichever resource asked first
		mu.Lock()
		connects[name]++
		mu.Unlock()
		time.Sleep(20 * time.Millisecond) // an ARM round trip: long enough for the others to pile up
		if name == "aks-down" && broken.Load() {
			return kube.Connection{}, errors.New("ResourceNotFound")
		}
		return kube.Connection{Host: "https://" + name + ".example:443"}, nil
	})
	clusters := []Cluster{{AKSClusterID: fleetID("aks-a"), Name: "a"}, {AKSClusterID: fleetID("aks-b")}, {AKSClusterID: fleetID("aks-down"), Name: "down"}}
	type result struct {
		cluster int
		client  *kube.Client
		err     error
	}
	results := make(chan result, 150)
	var wg sync.WaitGroup
	for i := range 150 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl := clusters[i%3]
			if i%2 == 1 {
				cl.AKSClusterID = strings.ToUpper(cl.AKSClusterID) // ARM IDs are case-insensitive
			}
			c, err := root.ForCluster(cl).Kube(context.Background())
			results <- result{i % 3, c, err}
		}()
	}
	wg.Wait()
	close(results)
	clients := map[int]map[*kube.Client]bool{0: {}, 1: {}}
	failures := 0
	for r := range results {
		switch {
		case r.cluster == 2:
			if r.err == nil {
				t.Fatalf("cluster down connected")
			}
			if !strings.Contains(strings.ToLower(r.err.Error()), `cluster "down" (`+strings.ToLower(fleetID("aks-down"))+`)`) || !strings.Contains(r.err.Error(), "ResourceNotFound") {
				t.Errorf("error of the unreachable cluster = %q, want it to name the cluster and say why", r.err)
			}
			failures++
		case r.err != nil:
			t.Fatalf("cluster %d: %v", r.cluster, r.err)
		default:
			clients[r.cluster][r.client] = true
		}
	}
	if len(clients[0]) != 1 || len(clients[1]) != 1 {
		t.Errorf("clients per cluster: a %d, b %d; want one each", len(clients[0]), len(clients[1]))
	}
	for c := range clients[0] {
		if clients[1][c] {
			t.Errorf("clusters a and b share a client")
		}
	}
	if connects["aks-a"] != 1 || connects["aks-b"] != 1 {
		t.Errorf("connects = %v, want exactly one for aks-a and aks-b", connects)
	}
	if failures != 50 || connects["aks-down"] < 2 {
		t.Errorf("%d failures after %d connects of aks-down; want 50, each caller trying again (a failure is not kept)", failures, connects["aks-down"])
	}
	// The cluster comes back: the next caller connects, nothing failed is remembered.
	broken.Store(false)
	if _, err := root.ForCluster(clusters[2]).Kube(context.Background()); err != nil {
		t.Errorf("after the cluster came back: %v", err)
	}
	// Clients of one cluster are also reached from another cluster's clients.
	if root.ForCluster(clusters[0]) != root.ForCluster(clusters[1]).ForCluster(clusters[0]) {
		t.Errorf("ForCluster from a cluster's clients gave other clients")
	}
}

// A fleet's clusters are reached with the provider's one Azure credential.
func TestForClusterSharesAzureCredential(t *testing.T) {
	root := New(nil)
	root.SetAzure(azure.Settings{}, azure.Options{}, []string{"azure.client_id"})
	_, _, _, err := root.ForCluster(Cluster{AKSClusterID: fleetID("aks-a")}).Azure()
	if err == nil || !strings.Contains(err.Error(), "azure.client_id") {
		t.Errorf("Azure() of a cluster = %v, want the provider's settings (azure.client_id unknown)", err)
	}
}

// EKS clusters are pooled by ARN as AKS clusters are by ID, beside them; an AKS cluster's
// admin and Entra ID clients are two users, so two pools; the connector is told which.
func TestForClusterEKSAndAdmin(t *testing.T) {
	var mu sync.Mutex
	asked := map[string]int{}
	root := New(nil)
	root.SetClusterConnector(func(_ context.Context, cl Cluster) (kube.Connection, error) {
		mu.Lock()
		defer mu.Unlock()
		key := cl.ID()
		if cl.Admin {
			key += " as admin"
		}
		asked[key]++
		return kube.Connection{Host: "https://" + strings.NewReplacer(":", "-", "/", "-").Replace(cl.Name) + ".example:443"}, nil
	})
	arnA, arnB := "arn:aws:eks:eu-west-1:123456789012:cluster/eks-a", "arn:aws:eks:eu-west-1:123456789012:cluster/eks-b"
	kube := func(cl Cluster) *kube.Client {
		t.Helper()
		c, err := root.ForCluster(cl).Kube(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a1, a2, b := kube(Cluster{EKSClusterARN: arnA, Name: "a"}), kube(Cluster{EKSClusterARN: arnA}), kube(Cluster{EKSClusterARN: arnB, Name: "b"})
	if a1 != a2 || a1 == b {
		t.Errorf("EKS clients: a %p and %p, b %p; want one client per ARN", a1, a2, b)
	}
	user, admin := kube(Cluster{AKSClusterID: fleetID("aks-a")}), kube(Cluster{AKSClusterID: fleetID("aks-a"), Admin: true})
	if user == admin {
		t.Error("an AKS cluster's admin and Entra ID clients are one client")
	}
	want := map[string]int{arnA: 1, arnB: 1, fleetID("aks-a"): 1, fleetID("aks-a") + " as admin": 1}
	for k, n := range want {
		if asked[k] != n {
			t.Errorf("connects = %v, want %v", asked, want)
			break
		}
	}
	// An ARN that does not parse is refused before the connector, naming the ARN.
	_, err := root.ForCluster(Cluster{EKSClusterARN: "arn:aws:eks:eu-west-1:123:cluster/x", Name: "bad"}).Kube(context.Background())
	if err == nil || !strings.Contains(err.Error(), `cluster "bad"`) || !strings.Contains(err.Error(), "12-digit") {
		t.Errorf("bad ARN: %v", err)
	}
}

func TestClusterKey(t *testing.T) {
	// EKS cluster names are case-sensitive: two spellings are two clusters.
	if ClusterKey("arn:aws:eks:eu-west-1:123456789012:cluster/Prod") == ClusterKey("arn:aws:eks:eu-west-1:123456789012:cluster/prod") {
		t.Error("EKS clusters Prod and prod share a key")
	}
	for _, tc := range []struct{ a, b string }{
		{fleetID("aks-a"), strings.ToUpper(fleetID("aks-a"))},
		{fleetID("aks-a"), fleetID("aks-a") + "/"},
	} {
		if ClusterKey(tc.a) != ClusterKey(tc.b) {
			t.Errorf("ClusterKey(%q) = %q, ClusterKey(%q) = %q; want one cluster", tc.a, ClusterKey(tc.a), tc.b, ClusterKey(tc.b))
		}
	}
	if ClusterKey(fleetID("aks-a")) == ClusterKey(fleetID("aks-b")) {
		t.Error("two clusters share a key")
	}
}
