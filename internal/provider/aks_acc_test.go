package provider_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	azfake "github.com/Azure/azure-sdk-for-go/sdk/azcore/fake"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6/fake"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

const (
	aksRG   = "rg-aks"
	aksName = "aks-prod"
	// adminUser is the common name of the client certificate in an AKS admin kubeconfig.
	adminUser = "masterclient"
)

var nodePools = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}

// fakeAKS is the Azure SDK's own fake ManagedClusters server, answering credential requests
// for one cluster with kubeconfigs that point at the local API server.
type fakeAKS struct {
	srv fake.ManagedClustersServer

	mu         sync.Mutex
	userCalls  int
	adminCalls int
	// wrong records requests for any other cluster than aksRG/aksName.
	wrong []string
}

func newFakeAKS(userKubeconfig, adminKubeconfig []byte) *fakeAKS {
	f := &fakeAKS{}
	f.srv.ListClusterUserCredentials = func(_ context.Context, rg, name string, _ *armcontainerservice.ManagedClustersClientListClusterUserCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse], azfake.ErrorResponder) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.userCalls++
		var resp azfake.Responder[armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse]
		var errResp azfake.ErrorResponder
		if rg != aksRG || name != aksName || userKubeconfig == nil {
			f.wrong = append(f.wrong, rg+"/"+name)
			errResp.SetResponseError(http.StatusNotFound, "ResourceNotFound")
			return resp, errResp
		}
		resp.SetResponse(http.StatusOK, armcontainerservice.ManagedClustersClientListClusterUserCredentialsResponse{CredentialResults: armcontainerservice.CredentialResults{
			Kubeconfigs: []*armcontainerservice.CredentialResult{{Name: to.Ptr("clusterUser"), Value: userKubeconfig}},
		}}, nil)
		return resp, errResp
	}
	f.srv.ListClusterAdminCredentials = func(_ context.Context, rg, name string, _ *armcontainerservice.ManagedClustersClientListClusterAdminCredentialsOptions) (azfake.Responder[armcontainerservice.ManagedClustersClientListClusterAdminCredentialsResponse], azfake.ErrorResponder) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.adminCalls++
		var resp azfake.Responder[armcontainerservice.ManagedClustersClientListClusterAdminCredentialsResponse]
		var errResp azfake.ErrorResponder
		if rg != aksRG || name != aksName || adminKubeconfig == nil {
			f.wrong = append(f.wrong, rg+"/"+name)
			errResp.SetResponseError(http.StatusNotFound, "ResourceNotFound")
			return resp, errResp
		}
		resp.SetResponse(http.StatusOK, armcontainerservice.ManagedClustersClientListClusterAdminCredentialsResponse{CredentialResults: armcontainerservice.CredentialResults{
			Kubeconfigs: []*armcontainerservice.CredentialResult{{Name: to.Ptr("clusterAdmin"), Value: adminKubeconfig}},
		}}, nil)
		return resp, errResp
	}
	return f
}

// option injects the fake server and the SDK's fake credential, whose token is entraToken.
func (f *fakeAKS) option() provider.Option {
	return provider.WithAzureOptions(azure.Options{
		ClientOptions: arm.ClientOptions{ClientOptions: azcore.ClientOptions{
			Transport: fake.NewManagedClustersServerTransport(&f.srv),
			Retry:     policy.RetryOptions{MaxRetries: -1},
		}},
		Credential: &azfake.TokenCredential{},
	})
}

func (f *fakeAKS) calls() (user, admin int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.userCalls, f.adminCalls
}

// entraKubeconfig is what AKS returns as user credentials of an AKS-managed Entra ID
// cluster: the API server's endpoint and CA, and a kubelogin exec entry as the user.
func entraKubeconfig(t *testing.T, c *testenv.Cluster) []byte {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[aksName] = &clientcmdapi.Cluster{Server: c.Config.Host, CertificateAuthorityData: c.Config.CAData}
	user := "clusterUser_" + aksRG + "_" + aksName
	cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{Exec: &clientcmdapi.ExecConfig{
		APIVersion: "client.authentication.k8s.io/v1beta1",
		Command:    "kubelogin",
		Args: []string{"get-token", "--environment", "AzurePublicCloud", "--server-id", azure.AKSServerAppID,
			"--client-id", "80faf920-1908-4b52-b5ef-a8e7bedfc67a", "--tenant-id", "72f988bf-86f1-41af-91ab-2d7cd011db47", "--login", "devicecode"},
		InteractiveMode: clientcmdapi.IfAvailableExecInteractiveMode,
	}}
	cfg.Contexts[aksName] = &clientcmdapi.Context{Cluster: aksName, AuthInfo: user}
	cfg.CurrentContext = aksName
	b, err := clientcmd.Write(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func clusterIDOf(name string) string {
	return "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/" + aksRG + "/providers/Microsoft.ContainerService/managedClusters/" + name
}

func aksConfig(providerAttrs, name string) string {
	return fmt.Sprintf(`
provider "karpenter" {
  kubernetes = { %s }
}

resource "karpenter_nodepool" "aks" {
  name   = %q
  weight = 7
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
}
`, providerAttrs, name)
}

// writesBy checks that the NodePool was written, and every change to it made, by user alone:
// the API server's audit log names the identity that each request authenticated as.
func writesBy(c *testenv.Cluster, name, user string, verbs ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var events []testenv.AuditEvent
		var err error
		// The log is written as responses complete; give the last one a moment.
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if events, err = c.AuditEvents(); err != nil {
				return err
			}
			seen := map[string]bool{}
			for _, e := range events {
				if e.Resource == "nodepools" && e.Name == name && e.User == user {
					seen[e.Verb] = true
				}
			}
			missing := false
			for _, v := range verbs {
				missing = missing || !seen[v]
			}
			if !missing {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("audit log has no %v of nodepools/%s by %s; events for it: %v", verbs, name, user, eventsFor(events, name))
			}
		}
		for _, e := range eventsFor(events, name) {
			mutating := e.Verb != "get" && e.Verb != "list" && e.Verb != "watch"
			if mutating && e.User != user {
				return fmt.Errorf("nodepools/%s was %sed by %s (user agent %q), want only %s", name, e.Verb, e.User, e.UserAgent, user)
			}
			if e.User == user && !strings.HasPrefix(e.UserAgent, "terraform-provider-karpenter") {
				return fmt.Errorf("request as %s came from %q, not the provider", user, e.UserAgent)
			}
		}
		return nil
	}
}

func eventsFor(events []testenv.AuditEvent, name string) []testenv.AuditEvent {
	var out []testenv.AuditEvent
	for _, e := range events {
		if e.Resource == "nodepools" && e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// managedByProvider checks that the provider's field manager owns the spec it applied.
func managedByProvider(c *testenv.Cluster, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		obj, err := c.Dynamic.Resource(nodePools).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		for _, mf := range obj.GetManagedFields() {
			if mf.Manager == kube.FieldManager && mf.Operation == metav1.ManagedFieldsOperationApply &&
				mf.FieldsV1 != nil && strings.Contains(string(mf.FieldsV1.Raw), `"f:weight"`) {
				return nil
			}
		}
		return fmt.Errorf("no server-side apply of spec.weight by %s in managedFields %+v", kube.FieldManager, obj.GetManagedFields())
	}
}

func checkGone(c *testenv.Cluster, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if _, err := c.Dynamic.Resource(nodePools).Get(context.Background(), name, metav1.GetOptions{}); err == nil {
			return fmt.Errorf("NodePool %s still exists after destroy", name)
		}
		return nil
	}
}

func checkARMCalls(f *fakeAKS, wantUser, wantAdmin bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		user, admin := f.calls()
		if (user > 0) != wantUser || (admin > 0) != wantAdmin {
			return fmt.Errorf("ARM credential requests: user %d, admin %d; want user>0 %v, admin>0 %v", user, admin, wantUser, wantAdmin)
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		if len(f.wrong) > 0 {
			return fmt.Errorf("ARM was asked for other clusters: %v", f.wrong)
		}
		return nil
	}
}

// The provider reaches an Entra ID AKS cluster through aks_cluster_id: it fetches the user
// kubeconfig from ARM (the SDK's fake), ignores its kubelogin entry, and authenticates to the
// API server with the credential's token, which the API server maps to entraUser.
func TestAccAKSClusterIDEntraToken(t *testing.T) {
	c := testenv.Get(t)
	clearConnectionEnv(t)
	f := newFakeAKS(entraKubeconfig(t, c), nil)
	name := "acc-aks-entra"
	cfg := aksConfig(fmt.Sprintf("aks_cluster_id = %q", clusterIDOf(aksName)), name)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(f.option()),
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			checkGone(c, name),
			writesBy(c, name, entraUser, "patch", "delete"),
		),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("karpenter_nodepool.aks", "id", name),
					managedByProvider(c, name),
					writesBy(c, name, entraUser, "patch"),
					checkARMCalls(f, true, false),
				),
			},
			{
				ResourceName:            "karpenter_nodepool.aks",
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
		},
	})
}

// With use_admin_credentials the provider uses the admin kubeconfig's client certificate,
// as AKS clusters with local accounts allow, and never asks for user credentials.
func TestAccAKSClusterIDAdminCredentials(t *testing.T) {
	c := testenv.Get(t)
	clearConnectionEnv(t)
	admin, err := c.AddUser(testenv.User{Name: adminUser, Groups: []string{"system:masters"}})
	if err != nil {
		t.Fatal(err)
	}
	f := newFakeAKS(nil, admin)
	name := "acc-aks-admin"
	cfg := aksConfig(fmt.Sprintf("aks_cluster_id = %q\n    use_admin_credentials = true", clusterIDOf(aksName)), name)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(f.option()),
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			checkGone(c, name),
			writesBy(c, name, adminUser, "patch", "delete"),
		),
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: resource.ComposeAggregateTestCheckFunc(
				managedByProvider(c, name),
				writesBy(c, name, adminUser, "patch"),
				checkARMCalls(f, false, true),
			),
		}},
	})
}

// Planning new resources needs no cluster, so it must not call ARM: only apply and refresh
// do. A cluster that ARM does not know therefore fails the apply, not the plan. (The pool
// references a node class created in the same run: its analysis needs no read. A new pool on
// a class outside the configuration reads it at plan; a failed read fails nothing.)
func TestAccAKSClusterIDIsResolvedLazily(t *testing.T) {
	c := testenv.Get(t)
	clearConnectionEnv(t)
	f := newFakeAKS(entraKubeconfig(t, c), nil)
	name := "acc-aks-lazy"
	withClass := func(cfg string) string {
		return strings.Replace(cfg, `name = "default" }`, `name = karpenter_aksnodeclass.lazy.name }`, 1) + `
resource "karpenter_aksnodeclass" "lazy" {
  name = "acc-aks-lazy-class"
}
`
	}
	cfg := withClass(aksConfig(fmt.Sprintf("aks_cluster_id = %q", clusterIDOf(aksName)), name))
	noARM := func(when string) func() {
		return func() {
			if user, admin := f.calls(); user+admin != 0 {
				t.Errorf("%s: %d ARM credential requests, want none", when, user+admin)
			}
		}
	}
	var afterApply int
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(f.option()),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{
				Config:             cfg,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				// A cluster ARM answers 404 for: the plan still succeeds, without a request.
				PreConfig:          noARM("plan of a new resource"),
				Config:             withClass(aksConfig(fmt.Sprintf("aks_cluster_id = %q", clusterIDOf("aks-unknown")), name)),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				// A new pool on NAP's default class reads it at plan: ARM's 404 leaves the
				// pool's analysis known after apply, and the plan succeeds.
				PreConfig: noARM("plan of a new resource for an unknown cluster"),
				Config:    aksConfig(fmt.Sprintf("aks_cluster_id = %q", clusterIDOf("aks-unknown")), name),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownValue("karpenter_nodepool.aks", tfjsonpath.New("analysis"))},
				},
				// The 404 reaches the user when a client is first needed, as a diagnostic.
				ExpectError: regexp.MustCompile(`(?s)Cannot connect to the Kubernetes cluster.*aks-unknown.*ResourceNotFound`),
			},
			{
				PreConfig: func() { f.mu.Lock(); f.wrong = nil; f.userCalls = 0; f.mu.Unlock() },
				Config:    cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					checkARMCalls(f, true, false),
					writesBy(c, name, entraUser, "patch"),
				),
			},
			{
				// Refreshing an existing resource reads it, and so resolves the connection.
				PreConfig:    func() { afterApply, _ = f.calls() },
				RefreshState: true,
				Check: func(*terraform.State) error {
					if user, _ := f.calls(); user <= afterApply {
						return fmt.Errorf("refresh made no ARM credential request (%d before, %d after)", afterApply, user)
					}
					return nil
				},
			},
		},
	})
}
