package provider_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	azfake "github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6/fake"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

var aksNodeClasses = schema.GroupVersionResource{Group: "karpenter.azure.com", Version: "v1beta1", Resource: "aksnodeclasses"}

// fakeFleet is the Azure SDK's fake ManagedClusters server for many clusters: each cluster
// name of resource group aksRG answers with the user kubeconfig of its own local API server;
// any other is not found.
type fakeFleet struct {
	srv fake.ManagedClustersServer

	mu    sync.Mutex
	calls map[string]int
}

func newFakeFleet(kubeconfigs map[string][]byte) *fakeFleet {
	f := &fakeFleet{calls: map[string]int{}}
	f.srv.ListClusterUserCredentials = func(_ context.Context, rg, name string, _ *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], azfake.ErrorResponder) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.calls[name]++
		var resp azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse]
		var errResp azfake.ErrorResponder
		kc, ok := kubeconfigs[name]
		if rg != aksRG || !ok {
			errResp.SetResponseError(http.StatusNotFound, "ResourceNotFound")
			return resp, errResp
		}
		resp.SetResponse(http.StatusOK, armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse{CredentialResults: armcontainerservice.CredentialResults{
			Kubeconfigs: []*armcontainerservice.CredentialResult{{Name: to.Ptr("clusterUser"), Value: kc}},
		}}, nil)
		return resp, errResp
	}
	return f
}

func (f *fakeFleet) option() provider.Option {
	return provider.WithAzureOptions(azure.Options{
		ClientOptions: arm.ClientOptions{ClientOptions: azcore.ClientOptions{
			Transport: fake.NewManagedClustersServerTransport(&f.srv),
			Retry:     policy.RetryOptions{MaxRetries: -1},
		}},
		Credential: &azfake.TokenCredential{},
	})
}

func (f *fakeFleet) called(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[name]
}

// secondCluster starts another local API server, which accepts the fake Entra ID token as
// the first does, for the length of the test.
func secondCluster(t *testing.T) *testenv.Cluster {
	t.Helper()
	testenv.Get(t) // skips when the binaries are missing
	c, err := testenv.StartWith(testenv.Options{Tokens: map[string]testenv.User{entraToken: {Name: entraUser, Groups: []string{"system:masters"}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	return c
}

// fleetConfig is one provider block with no kubernetes connection, a node class per cluster
// and for_each over clusters × pools; "mover" is one pool in the cluster moverIn. extra are
// further clusters (each with the same pools), e.g. one ARM does not know.
func fleetConfig(moverIn, regionA string, extra ...string) string {
	clusters := fmt.Sprintf("    a = { id = %q, region = %q }\n    b = { id = %q, region = \"westeurope\" }\n", clusterIDOf("aks-a"), regionA, clusterIDOf("aks-b"))
	for _, e := range extra {
		clusters += fmt.Sprintf("    %s = { id = %q, region = \"westeurope\" }\n", e, clusterIDOf("aks-"+e))
	}
	return fmt.Sprintf(`
provider "karpenter" {}

locals {
  clusters = {
%s  }
  pools = toset(["general", "batch"])
  fleet = { for p in setproduct(keys(local.clusters), local.pools) : "${p[0]}/${p[1]}" => { cluster = p[0], pool = p[1] } }
}

resource "karpenter_aksnodeclass" "nc" {
  for_each     = local.clusters
  name         = "standard"
  image_family = "AzureLinux"
  cluster      = { aks_cluster_id = each.value.id, name = each.key }
}

resource "karpenter_nodepool" "p" {
  for_each = local.fleet
  name     = each.value.pool
  cluster = {
    aks_cluster_id = local.clusters[each.value.cluster].id
    region         = local.clusters[each.value.cluster].region
    name           = each.value.cluster
  }
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.nc[each.value.cluster].name }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  limits = { cpu = "100" }
}

resource "karpenter_nodepool" "mover" {
  name    = "mover"
  cluster = { aks_cluster_id = local.clusters[%q].id, name = %q }
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.nc[%q].name }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  limits = { cpu = "10" }
}
`, clusters, moverIn, moverIn, moverIn)
}

// objectsIn checks which NodePools the cluster holds.
func objectsIn(t *testing.T, c *testenv.Cluster, label string, want ...string) {
	t.Helper()
	list, err := c.Dynamic.Resource(nodePools).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range list.Items {
		got = append(got, o.GetName())
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("cluster %s holds NodePools %v, want %v", label, got, want)
	}
}

// One provider configuration manages two clusters at once, two local API servers each reached
// through ARM by the aks_cluster_id of its resources' cluster attribute, with one for_each over
// clusters × pools: apply with -parallelism=50, an empty second plan, import with the cluster
// in the ID, a pool moved to the other cluster is replaced, a new region updates in place, and
// a cluster ARM does not know fails only its own resources, naming the cluster.
func TestAccFleetTwoClusters(t *testing.T) {
	bin := tfBinary(t)
	a := testenv.Get(t)
	b := secondCluster(t)
	clearConnectionEnv(t)
	f := newFakeFleet(map[string][]byte{"aks-a": entraKubeconfig(t, a), "aks-b": entraKubeconfig(t, b)})
	d := newTFDir(t, bin).inProcess(f.option())
	t.Cleanup(func() {
		// Whatever failed, leave no objects behind for the package's other tests.
		d.write("main.tf", fleetConfig("b", "northeurope"))
		if out, errOut, code := d.run("destroy", "-auto-approve", "-input=false"); code != 0 {
			t.Errorf("destroy: exit %d\n%s\n%s", code, out, errOut)
		}
		objectsIn(t, a, "a")
		objectsIn(t, b, "b")
		for label, c := range map[string]*testenv.Cluster{"a": a, "b": b} {
			if l, err := c.Dynamic.Resource(aksNodeClasses).List(context.Background(), metav1.ListOptions{}); err != nil || len(l.Items) > 0 {
				t.Errorf("cluster %s still holds AKSNodeClasses after destroy (%v)", label, err)
			}
		}
	})

	d.write("main.tf", fleetConfig("a", "westeurope"))
	d.must("init", "-input=false")
	d.must("apply", "-auto-approve", "-input=false", "-parallelism=50")
	objectsIn(t, a, "a", "general", "batch", "mover")
	objectsIn(t, b, "b", "general", "batch")
	if err := writesBy(a, "mover", entraUser, "patch")(nil); err != nil {
		t.Error(err)
	}
	if f.called("aks-a") == 0 || f.called("aks-b") == 0 {
		t.Errorf("ARM credential requests: aks-a %d, aks-b %d; want both", f.called("aks-a"), f.called("aks-b"))
	}
	if got := d.planActions(); len(got) != 0 {
		t.Fatalf("second plan is not empty: %v", got)
	}

	// Import with the cluster in the ID: <aks_cluster_id>//<name>. The label and the region
	// are configuration only (no cluster says them), so the plan after the import sets them in
	// place; a cluster lost on import would be a replacement (and an unreachable read).
	d.must("state", "rm", `karpenter_nodepool.p["b/general"]`)
	d.must("import", "-input=false", `karpenter_nodepool.p["b/general"]`, clusterIDOf("aks-b")+"//general")
	if got := d.planActions(); len(got) != 1 || got[`karpenter_nodepool.p["b/general"]`] != "update" {
		t.Errorf("plan after import = %v, want only the update of cluster.name and cluster.region", got)
	}
	d.must("apply", "-auto-approve", "-input=false", "plan.out")
	if show := d.must("state", "show", `karpenter_nodepool.p["b/general"]`); !strings.Contains(show, clusterIDOf("aks-b")) {
		t.Errorf("imported state has no cluster:\n%s", show)
	}

	// The mover goes to cluster b (replaced); cluster a's region changes (in place).
	d.write("main.tf", fleetConfig("b", "northeurope"))
	got := d.planActions()
	if got["karpenter_nodepool.mover"] != "delete,create" || got[`karpenter_nodepool.p["a/general"]`] != "update" || got[`karpenter_nodepool.p["b/general"]`] != "" {
		t.Errorf("plan of the move = %v, want mover replaced (delete,create), a's pools updated, b's untouched", got)
	}
	d.must("apply", "-auto-approve", "-input=false", "-parallelism=50", "plan.out")
	objectsIn(t, a, "a", "general", "batch")
	objectsIn(t, b, "b", "general", "batch", "mover")

	// A cluster ARM does not know: its resources fail, named; the others are created.
	d.write("main.tf", fleetConfig("b", "northeurope", "down"))
	out, errOut, code := d.run("apply", "-auto-approve", "-input=false", "-parallelism=50")
	if code == 0 || !regexp.MustCompile(`(?s)Cannot connect to the Kubernetes cluster.*cluster "down"\s+\(/subscriptions/.*aks-down\):.*ResourceNotFound`).MatchString(errOut) {
		t.Errorf("apply with an unknown cluster: exit %d, want the cluster named in the error\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, "aks-a") || strings.Contains(errOut, "aks-b") {
		t.Errorf("the failure of cluster down touched the others:\n%s", errOut)
	}
	objectsIn(t, b, "b", "general", "batch", "mover")
	d.write("main.tf", fleetConfig("b", "northeurope"))
	d.must("apply", "-auto-approve", "-input=false")
	if got := d.planActions(); len(got) != 0 {
		t.Errorf("plan after dropping cluster down is not empty: %v", got)
	}

	// An object that exists already in cluster b: the error gives the import ID with the cluster.
	taken := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": map[string]any{"name": "taken"},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
			"requirements": []any{map[string]any{"key": "karpenter.azure.com/sku-family", "operator": "In", "values": []any{"D"}}},
		}}},
	}}
	if _, err := b.Dynamic.Resource(nodePools).Create(context.Background(), taken, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = b.Dynamic.Resource(nodePools).Delete(context.Background(), "taken", metav1.DeleteOptions{})
	})
	d.write("main.tf", fleetConfig("b", "northeurope")+fmt.Sprintf(`
resource "karpenter_nodepool" "taken" {
  name    = "taken"
  cluster = { aks_cluster_id = %q }
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
}
`, clusterIDOf("aks-b")))
	out, errOut, code = d.run("apply", "-auto-approve", "-input=false")
	if want := clusterIDOf("aks-b") + "//taken"; code == 0 || !strings.Contains(strings.Join(strings.Fields(errOut), ""), want) {
		t.Errorf("apply over an existing object: exit %d, want the import ID %s\n%s\n%s", code, want, out, errOut)
	}
	d.write("main.tf", fleetConfig("b", "northeurope"))
}
