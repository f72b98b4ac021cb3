package nap_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure/armfake"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// fleetMember is one AKS cluster of a fleet: its fake ARM world, its own local API server and
// the VNet its node classes use.
type fleetMember struct {
	key, vnet, subnet string
	w                 *armfake.World
	c                 *testenv.Cluster
}

// route sends each ARM request to the world it concerns: cluster requests by the cluster's
// name, role assignments by the VNet of their scope.
type route []fleetMember

func (r route) Do(req *http.Request) (*http.Response, error) {
	p := strings.ToLower(req.URL.Path)
	for _, m := range r {
		if strings.Contains(p, "/managedclusters/"+strings.ToLower(m.w.Name)) || strings.Contains(p, "/virtualnetworks/"+m.vnet+"/") {
			return m.w.ClientOptions().Transport.Do(req)
		}
	}
	return nil, fmt.Errorf("no fake cluster for %s %s", req.Method, req.URL.Path)
}

func newFleetMember(t *testing.T, key, principalID string, c *testenv.Cluster) fleetMember {
	t.Helper()
	vnet := "vnet-" + key
	subnet := "/subscriptions/" + sub + "/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/" + vnet + "/subnets/nodes"
	w := armfake.New(sub, rg, "aks-"+key, armfake.Compliant(subnet, principalID), armfake.NAP{Mode: "Manual"})
	w.UserKubeconfig = entraKubeconfig(t, c)
	return fleetMember{key: key, vnet: vnet, subnet: subnet, w: w, c: c}
}

var nodePools = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}

// Issue item "NAP in a fleet": one configuration enables NAP on two clusters and gives each a
// node class in a custom subnet and a pool, every resource naming its cluster. Each NAP
// resource publishes its Network Contributor grants on its own cluster's board only: cluster
// b's node class in cluster a's subnet is not vouched for by a's grant (KRP116, an error in
// strict mode, naming b's scopes), while each class in its own cluster's granted subnet plans
// clean. The apply enables NAP and grants in each cluster's own Azure, writes each pool to its
// own API server, and the second plan is empty.
func TestAccNAPFleetGrantsPerCluster(t *testing.T) { testNAPFleet(t, false) }

// The same with cluster a as the provider's own (kubernetes = { aks_cluster_id = a }): its
// node class and pool name no cluster, its NAP resource's cluster_id is the provider's, and
// b's class is still not vouched for by a's grant.
func TestAccNAPFleetWithTheProvidersOwnCluster(t *testing.T) { testNAPFleet(t, true) }

func testNAPFleet(t *testing.T, own bool) {
	first := testenv.Get(t)
	second, err := testenv.StartWith(testenv.Options{Tokens: map[string]testenv.User{fakeToken: {Name: "nap-operator@contoso.example", Groups: []string{"system:masters"}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(second.Stop)
	a := newFleetMember(t, "a", principal, first)
	b := newFleetMember(t, "b", "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d", second)
	fleet := route{a, b}
	factories := acctest.Factories(
		provider.WithAzureOptions(azure.Options{ClientOptions: arm.ClientOptions{ClientOptions: azcore.ClientOptions{Transport: fleet, Retry: policy.RetryOptions{MaxRetries: -1}}},
			Credential: armfake.Credential()}),
		provider.WithConfigured(func(d *providerdata.Data) {
			d.Clients.DeletePollInterval = 100 * time.Millisecond
			d.Clients.AzurePollInterval = 20 * time.Millisecond
		}),
	)
	// Resources per cluster written out (no for_each: the test framework's state checks do
	// not support string instance keys).
	cfg := func(bSubnet string) string {
		out := "provider \"karpenter\" {\n  checks = { strict = true }\n}\n"
		if own {
			out = fmt.Sprintf("provider \"karpenter\" {\n  checks     = { strict = true }\n  kubernetes = { aks_cluster_id = %q }\n}\n", a.w.ClusterID())
		}
		for _, m := range []struct{ key, id, subnet, classSubnet string }{{"a", a.w.ClusterID(), a.subnet, a.subnet}, {"b", b.w.ClusterID(), b.subnet, bSubnet}} {
			cluster := fmt.Sprintf("cluster = { aks_cluster_id = %q, name = %q }", m.id, m.key)
			poolCluster := fmt.Sprintf("cluster = { aks_cluster_id = %q, region = \"westeurope\", name = %q }", m.id, m.key)
			if own && m.key == "a" {
				cluster, poolCluster = "", ""
			}
			out += fmt.Sprintf(`
resource "karpenter_aks_node_auto_provisioning" "%[1]s" {
  cluster_id                 = %[2]q
  network_contributor_scopes = [%[3]q]
}

resource "karpenter_aksnodeclass" "%[1]s" {
  name           = "custom"
  vnet_subnet_id = %[4]q
  %[5]s
  depends_on     = [karpenter_aks_node_auto_provisioning.a, karpenter_aks_node_auto_provisioning.b]
}

resource "karpenter_nodepool" "%[1]s" {
  name    = "general-%[1]s"
  %[6]s
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.%[1]s.name }
    requirements = [
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] }, # no KRP119 in strict mode
    ]
  }
  limits = { cpu = "100" }
}
`, m.key, m.id, m.subnet, m.classSubnet, cluster, poolCluster)
		}
		return out
	}
	pools := func(m fleetMember, want ...string) resource.TestCheckFunc {
		return check(func() error {
			list, err := m.c.Dynamic.Resource(nodePools).List(t.Context(), metav1.ListOptions{})
			if err != nil {
				return err
			}
			var got []string
			for _, o := range list.Items {
				got = append(got, o.GetName())
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				return fmt.Errorf("cluster %s holds NodePools %v, want %v", m.key, got, want)
			}
			return nil
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             resource.ComposeAggregateTestCheckFunc(pools(a), pools(b)),
		Steps: []resource.TestStep{
			{
				// b's class in a's subnet: a's grant does not cover it in b.
				Config:      cfg(a.subnet),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)KRP116.*with karpenter_aksnodeclass\.b,.*vnet-a/subnets/nodes.*configuration\s+are\s+\S*vnet-b/subnets/nodes\.`),
			},
			{
				Config: cfg(b.subnet),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkNAP(a.w, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}),
					checkNAP(b.w, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}),
					checkAssignments(a.w, a.subnet+"/providers/Microsoft.Authorization/roleAssignments/"+azure.AssignmentName(a.subnet, principal, azure.NetworkContributorRoleID)),
					checkAssignments(b.w, b.subnet+"/providers/Microsoft.Authorization/roleAssignments/"+azure.AssignmentName(b.subnet, "1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d", azure.NetworkContributorRoleID)),
					pools(a, "general-a"), pools(b, "general-b"),
					resource.TestCheckResourceAttr("karpenter_nodepool.b", "analysis.node_class", "AKSNodeClass custom"),
				),
			},
			{
				Config:           cfg(b.subnet),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
