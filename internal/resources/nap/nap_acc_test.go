package nap_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure/armfake"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

const (
	sub       = "5c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f"
	rg        = "rg-aks"
	name      = "aks-nap"
	principal = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"
	vnet      = "/subscriptions/" + sub + "/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/vnet"
	subnet    = vnet + "/subnets/nodes"
	subnet2   = vnet + "/subnets/pods"
	addr      = "karpenter_aks_node_auto_provisioning.this"
	ncRole    = "/subscriptions/" + sub + "/providers/Microsoft.Authorization/roleDefinitions/" + azure.NetworkContributorRoleID
	putAPI    = "ManagedClustersClient.BeginCreateOrUpdate"
)

// harness is one fake Azure (the SDK's fake servers) and, when the test needs Kubernetes, the
// local API server, reached through the provider's aks_cluster_id connection.
type harness struct {
	w *armfake.World
	c *testenv.Cluster
}

func newHarness(t *testing.T, nap armfake.NAP, kube bool) harness {
	t.Helper()
	h := harness{w: armfake.New(sub, rg, name, armfake.Compliant(subnet, principal), nap)}
	if kube {
		h.c = testenv.Get(t)
		h.w.UserKubeconfig = entraKubeconfig(t, h.c)
	}
	return h
}

// entraKubeconfig is what AKS returns as user credentials of an Entra ID cluster: endpoint,
// CA and a kubelogin exec entry, which the provider replaces with an in-process token.
func entraKubeconfig(t *testing.T, c *testenv.Cluster) []byte {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[name] = &clientcmdapi.Cluster{Server: c.Config.Host, CertificateAuthorityData: c.Config.CAData}
	cfg.AuthInfos["user"] = &clientcmdapi.AuthInfo{Exec: &clientcmdapi.ExecConfig{
		APIVersion: "client.authentication.k8s.io/v1beta1", Command: "kubelogin",
		Args: []string{"get-token", "--server-id", azure.AKSServerAppID, "--login", "devicecode"},
	}}
	cfg.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: "user"}
	cfg.CurrentContext = name
	b, err := clientcmd.Write(*cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (h harness) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return acctest.Factories(
		provider.WithAzureOptions(azure.Options{ClientOptions: h.w.ClientOptions(), Credential: armfake.Credential()}),
		provider.WithConfigured(func(d *providerdata.Data) {
			d.Clients.DeletePollInterval = 100 * time.Millisecond
			d.Clients.AzurePollInterval = 20 * time.Millisecond
		}),
	)
}

func (h harness) config(attrs string) string {
	p := "provider \"karpenter\" {}\n"
	if h.c != nil {
		p = fmt.Sprintf("provider \"karpenter\" {\n  kubernetes = { aks_cluster_id = %q }\n}\n", h.w.ClusterID())
	}
	return p + fmt.Sprintf("\nresource \"karpenter_aks_node_auto_provisioning\" \"this\" {\n  cluster_id = %q\n%s\n}\n", h.w.ClusterID(), attrs)
}

// ownID is the ID of the assignment the provider creates for scope: deterministic.
func ownID(scope string) string {
	return scope + "/providers/Microsoft.Authorization/roleAssignments/" + azure.AssignmentName(scope, principal, azure.NetworkContributorRoleID)
}

// after runs checks once resource.Test has returned. A test whose only step fails leaves no
// state, and terraform-plugin-testing then skips CheckDestroy, so what a failed apply left in
// Azure must be checked here.
func after(t *testing.T, checks ...resource.TestCheckFunc) {
	t.Helper()
	for _, c := range checks {
		if err := c(nil); err != nil {
			t.Error(err)
		}
	}
}

func check(fn func() error) resource.TestCheckFunc {
	return func(*terraform.State) error { return fn() }
}

func checkNAP(w *armfake.World, want armfake.NAP) resource.TestCheckFunc {
	return check(func() error {
		if _, got := w.Cluster(); got != want {
			return fmt.Errorf("cluster profile = %+v, want %+v", got, want)
		}
		return nil
	})
}

func checkWrites(w *armfake.World, n int) resource.TestCheckFunc {
	return check(func() error {
		if got := w.Writes(); got != n {
			return fmt.Errorf("cluster writes = %d, want %d", got, n)
		}
		return nil
	})
}

// checkAssignments says the world holds exactly these role assignments.
func checkAssignments(w *armfake.World, ids ...string) resource.TestCheckFunc {
	return check(func() error {
		var got []string
		for _, a := range w.Assignments() {
			got = append(got, strings.ToLower(*a.ID))
		}
		want := make([]string, len(ids))
		for i, id := range ids {
			want[i] = strings.ToLower(id)
		}
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			return fmt.Errorf("role assignments = %v, want %v", got, want)
		}
		return nil
	})
}

// The whole life on a compliant Manual cluster: enable with a grant, an empty second plan,
// import, drift of the mode and of the grant, dropping the grant, and a destroy that leaves
// NAP enabled.
func TestAccNAPEnableOnCompliantCluster(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Manual"}, true)
	h.w.LRO.InProgress = 3
	withGrant := h.config(fmt.Sprintf("  network_contributor_scopes = [%q]", subnet))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			// Destroy leaves NAP on (switch_back_to_manual_on_destroy is false)...
			checkNAP(h.w, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}),
			// ...and removes the grant it created.
			checkAssignments(h.w),
		),
		Steps: []resource.TestStep{
			{
				Config: withGrant,
				Check: resource.ComposeAggregateTestCheckFunc(
					checkNAP(h.w, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}),
					checkWrites(h.w, 1),
					checkAssignments(h.w, ownID(subnet)),
					resource.TestCheckResourceAttr(addr, "id", h.w.ClusterID()),
					resource.TestCheckResourceAttr(addr, "mode", "Auto"),
					resource.TestCheckResourceAttr(addr, "effective_mode", "Auto"),
					resource.TestCheckResourceAttr(addr, "default_node_pools", "Auto"),
					resource.TestCheckResourceAttr(addr, "principal_id", principal),
					resource.TestCheckResourceAttr(addr, "kubernetes_version", "1.33.2"),
					resource.TestCheckResourceAttr(addr, "crds_established", "true"),
					resource.TestCheckResourceAttr(addr, "role_assignment_ids.%", "1"),
					resource.TestCheckResourceAttr(addr, "role_assignment_ids."+subnet, ownID(subnet)),
				),
			},
			{
				// Unchanged configuration: nothing to do, and no write.
				Config:           withGrant,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            checkWrites(h.w, 1),
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     h.w.ClusterID(),
				ImportStateVerify: true,
				// Import cannot know which scopes the configuration grants on; the next plan
				// adopts the existing grants for them.
				ImportStateVerifyIgnore: []string{"network_contributor_scopes", "role_assignment_ids", "timeouts"},
			},
			{
				// Switched back to Manual outside Terraform: the plan shows it and the apply
				// enables NAP again.
				PreConfig: func() {
					h.w.Modify(func(_ *armcontainerservice.ManagedCluster, n *armfake.NAP) { n.Mode = "Manual" })
				},
				Config: withGrant,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					expectChange("mode", "Manual", "Auto"),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkNAP(h.w, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}),
					checkWrites(h.w, 2),
				),
			},
			{
				// The grant deleted outside Terraform: planned and created again.
				PreConfig: func() {
					if !h.w.DeleteAssignment(ownID(subnet)) {
						t.Fatal("the grant to delete is not there")
					}
				},
				Config:           withGrant,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAssignments(h.w, ownID(subnet)),
					resource.TestCheckResourceAttr(addr, "role_assignment_ids."+subnet, ownID(subnet)),
					checkWrites(h.w, 2),
				),
			},
			{
				// A second scope added, the first dropped: one grant created, one removed.
				Config: h.config(fmt.Sprintf("  network_contributor_scopes = [%q]", subnet2)),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkAssignments(h.w, ownID(subnet2)),
					resource.TestCheckResourceAttr(addr, "role_assignment_ids.%", "1"),
					resource.TestCheckResourceAttr(addr, "role_assignment_ids."+subnet2, ownID(subnet2)),
				),
			},
		},
	})
}

// A cluster already in Auto mode (set by azurerm, say) is never written and plans empty.
func TestAccNAPAlreadyAutoCluster(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}, true)
	cfg := h.config("")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			checkWrites(h.w, 0),
			checkNAP(h.w, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}),
		),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					checkWrites(h.w, 0),
					resource.TestCheckResourceAttr(addr, "effective_mode", "Auto"),
					resource.TestCheckResourceAttr(addr, "role_assignment_ids.%", "0"),
				),
			},
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// An identical grant that exists under another name is adopted: no assignment is created,
// and destroy leaves it in place.
func TestAccNAPAdoptsExistingRoleAssignment(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Manual"}, true)
	existing := h.w.AddAssignment(subnet, "c0ffee00-0000-4000-8000-00000000abcd", principal, ncRole)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		CheckDestroy:             checkAssignments(h.w, existing),
		Steps: []resource.TestStep{{
			Config: h.config(fmt.Sprintf("  network_contributor_scopes = [%q]", subnet)),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "role_assignment_ids."+subnet, existing),
				checkAssignments(h.w, existing),
				check(func() error {
					if n := h.w.Count("RoleAssignmentsClient.Create", ""); n != 0 {
						return fmt.Errorf("%d role assignments created, want none", n)
					}
					return nil
				}),
			),
		}},
	})
}

// Each unmet prerequisite fails the apply with its own message before anything is changed:
// no cluster write, no grant.
func TestAccNAPPrerequisiteFailures(t *testing.T) {
	cases := map[string]struct {
		change func(*armcontainerservice.ManagedCluster)
		want   string
	}{
		"kubenet": {func(c *armcontainerservice.ManagedCluster) {
			c.Properties.NetworkProfile.NetworkPlugin = to.Ptr(armcontainerservice.NetworkPluginKubenet)
		}, `(?s)Network plugin is not Azure CNI.*networkPlugin is kubenet`},
		"calico": {func(c *armcontainerservice.ManagedCluster) {
			c.Properties.NetworkProfile.NetworkPolicy = to.Ptr(armcontainerservice.NetworkPolicyCalico)
		}, `Calico network policy is not supported`},
		"ipv6": {func(c *armcontainerservice.ManagedCluster) {
			c.Properties.NetworkProfile.IPFamilies = []*armcontainerservice.IPFamily{to.Ptr(armcontainerservice.IPFamilyIPv4), to.Ptr(armcontainerservice.IPFamilyIPv6)}
		}, `IPv6 is not supported`},
		"service principal": {func(c *armcontainerservice.ManagedCluster) {
			c.Identity = nil
			c.Properties.ServicePrincipalProfile.ClientID = to.Ptr("4a5b6c7d-0000-0000-0000-000000000000")
		}, `Cluster uses a service principal`},
		"autoscaler": {func(c *armcontainerservice.ManagedCluster) {
			c.Properties.AgentPoolProfiles[0].EnableAutoScaling = to.Ptr(true)
		}, `(?s)Cluster autoscaler is enabled.*"system"`},
		"basic load balancer": {func(c *armcontainerservice.ManagedCluster) {
			c.Properties.NetworkProfile.LoadBalancerSKU = to.Ptr(armcontainerservice.LoadBalancerSKUBasic)
		}, `Standard load balancer required`},
		"stopped": {func(c *armcontainerservice.ManagedCluster) {
			c.Properties.PowerState.Code = to.Ptr(armcontainerservice.CodeStopped)
		}, `(?s)Cluster is stopped.*az aks start`},
		"windows": {func(c *armcontainerservice.ManagedCluster) {
			c.Properties.AgentPoolProfiles = append(c.Properties.AgentPoolProfiles, &armcontainerservice.ManagedClusterAgentPoolProfile{
				Name: to.Ptr("win1"), OSType: to.Ptr(armcontainerservice.OSTypeWindows)})
		}, `(?s)Windows agent pools are not supported.*"win1"`},
	}
	for label, tc := range cases {
		t.Run(label, func(t *testing.T) {
			h := newHarness(t, armfake.NAP{Mode: "Manual"}, false)
			h.w.Modify(func(c *armcontainerservice.ManagedCluster, _ *armfake.NAP) { tc.change(c) })
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: h.factories(),
				Steps: []resource.TestStep{{
					Config:      h.config(fmt.Sprintf("  network_contributor_scopes = [%q]\n  wait_for_crds = false", subnet)),
					ExpectError: regexp.MustCompile(`NAP prerequisite not met: ` + tc.want),
				}},
			})
			after(t, checkWrites(h.w, 0), checkAssignments(h.w), checkNAP(h.w, armfake.NAP{Mode: "Manual"}))
		})
	}
}

// Issue 31 item 15: with NAP's default NodePools off, NAP is enabled beside agent pools that
// keep the cluster autoscaler (AKS's AllowClusterAutoscalerAndNAP path, taints on both sides):
// the prerequisite check warns instead of refusing, and the mode switch is written.
func TestAccNAPBesideClusterAutoscaler(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Manual"}, false)
	h.w.Modify(func(c *armcontainerservice.ManagedCluster, _ *armfake.NAP) {
		c.Properties.AgentPoolProfiles = append(c.Properties.AgentPoolProfiles, &armcontainerservice.ManagedClusterAgentPoolProfile{
			Name: to.Ptr("cas1"), EnableAutoScaling: to.Ptr(true), OSType: to.Ptr(armcontainerservice.OSTypeLinux),
			NodeTaints: []*string{to.Ptr(azure.CASBlockTaint)},
		})
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		Steps: []resource.TestStep{{
			Config: h.config(fmt.Sprintf("  network_contributor_scopes = [%q]\n  default_node_pools = \"None\"\n  wait_for_crds = false", subnet)),
			Check:  resource.ComposeAggregateTestCheckFunc(checkNAP(h.w, armfake.NAP{Mode: "Auto", DefaultNodePools: "None"}), checkWrites(h.w, 1)),
		}},
	})
}

// The long-running operation fails: the apply fails with AKS's code, and the grant created
// before it is removed again.
func TestAccNAPLROFailureLeavesNoRoleAssignment(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Manual"}, false)
	h.w.LRO = armfake.LRO{InProgress: 2, FailCode: "NodeProvisioningUpdateFailed"}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		Steps: []resource.TestStep{{
			Config:      h.config(fmt.Sprintf("  network_contributor_scopes = [%q, %q]\n  wait_for_crds = false", subnet, subnet2)),
			ExpectError: regexp.MustCompile(`(?s)Cannot set the node provisioning mode.*NodeProvisioningUpdateFailed`),
		}},
	})
	after(t,
		checkAssignments(h.w),
		check(func() error {
			if n := h.w.Count("RoleAssignmentsClient.Create", ""); n != 2 {
				return fmt.Errorf("%d grants were created; the test needs 2 made and rolled back", n)
			}
			return nil
		}),
		checkNAP(h.w, armfake.NAP{Mode: "Manual"}),
	)
}

// A grant that fails half-way removes the grants made before it, and the mode is not touched.
func TestAccNAPFailedGrantRollsBackEarlierGrants(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Manual"}, false)
	h.w.FailCreateAssignment = func(scope string) bool { return strings.EqualFold(scope, subnet2) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		Steps: []resource.TestStep{{
			Config:      h.config(fmt.Sprintf("  network_contributor_scopes = [%q, %q]\n  wait_for_crds = false", subnet, subnet2)),
			ExpectError: regexp.MustCompile(`(?s)Cannot grant Network Contributor.*AuthorizationFailed`),
		}},
	})
	after(t, checkAssignments(h.w), checkWrites(h.w, 0), check(func() error {
		if n := h.w.Count("RoleAssignmentsClient.Create", ""); n != 2 {
			return fmt.Errorf("%d create calls; the test needs one success and one failure", n)
		}
		return nil
	}))
}

// Throttling (429 with Retry-After) and a 503 on reads, the write and a grant are retried by
// the SDK pipeline with the provider's retry options; the apply succeeds.
func TestAccNAPRetriesThrottlingAndServerErrors(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Manual"}, false)
	h.w.AddFault(armfake.Fault{API: "ManagedClustersClient.Get", Status: http.StatusTooManyRequests, RetryAfter: "1", Times: 1})
	h.w.AddFault(armfake.Fault{API: putAPI, Status: http.StatusServiceUnavailable, Times: 1})
	h.w.AddFault(armfake.Fault{API: "RoleAssignmentsClient.Create", Status: http.StatusTooManyRequests, RetryAfter: "1", Times: 1})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		Steps: []resource.TestStep{{
			Config: h.config(fmt.Sprintf("  network_contributor_scopes = [%q]\n  wait_for_crds = false", subnet)),
			Check: resource.ComposeAggregateTestCheckFunc(
				checkNAP(h.w, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}),
				checkAssignments(h.w, ownID(subnet)),
				check(func() error {
					faulted := map[string]int{}
					for _, r := range h.w.Requests() {
						if r.Fault != 0 {
							faulted[r.API] = r.Fault
						}
					}
					want := map[string]int{"ManagedClustersClient.Get": 429, putAPI: 503, "RoleAssignmentsClient.Create": 429}
					if fmt.Sprint(faulted) != fmt.Sprint(want) {
						return fmt.Errorf("failed attempts = %v, want %v", faulted, want)
					}
					if h.w.Writes() != 1 || h.w.Count("RoleAssignmentsClient.Create", "") != 2 {
						return fmt.Errorf("writes=%d creates=%d: each call should have succeeded on its retry", h.w.Writes(), h.w.Count("RoleAssignmentsClient.Create", ""))
					}
					return nil
				}),
			),
		}},
	})
}

// The configured timeout ends the wait for AKS with an explanation and keeps the grant made
// for the update, which goes on in Azure. The next apply waits while AKS still reports the
// operation running, finds the mode already switched (no second write) and takes the grant
// over as its own (not created again).
func TestAccNAPTimeoutThenResume(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Manual"}, false)
	h.w.LRO.InProgress = 1 << 20
	grant := fmt.Sprintf("  network_contributor_scopes = [%q]\n  wait_for_crds = false\n", subnet)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		Steps: []resource.TestStep{
			{
				Config:      h.config(grant + "  timeouts = { create = \"2s\" }"),
				ExpectError: regexp.MustCompile(`(?s)Timed out waiting for AKS.*may\s+still\s+be\s+running.*grants.*stay`),
			},
			{
				PreConfig: func() {
					after(t, checkAssignments(h.w, ownID(subnet)), checkWrites(h.w, 1))
					h.w.LRO.InProgress = 0
					h.w.Running = &armfake.Running{Reads: 3}
				},
				Config: h.config(grant + "  timeouts = { create = \"30s\" }"),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkNAP(h.w, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}),
					checkWrites(h.w, 1),
					checkAssignments(h.w, ownID(subnet)),
					resource.TestCheckResourceAttr(addr, "role_assignment_ids."+subnet, ownID(subnet)),
					check(func() error {
						if n := h.w.Count("RoleAssignmentsClient.Create", ""); n != 1 {
							return fmt.Errorf("%d grants created; the resumed apply should take over the first", n)
						}
						if h.w.OperationRunning() {
							return fmt.Errorf("the apply did not wait for the running operation")
						}
						return nil
					}),
				),
			},
		},
	})
}

// Destroy with switch_back_to_manual_on_destroy: refused, naming the node, while a NAP node
// exists; once it is gone the cluster goes back to Manual.
func TestAccNAPDestroySwitchesBackToManual(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Manual"}, true)
	cfg := h.config(fmt.Sprintf("  network_contributor_scopes = [%q]\n  switch_back_to_manual_on_destroy = true", subnet))
	node := "aks-default-x7k2p"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			checkNAP(h.w, armfake.NAP{Mode: "Manual", DefaultNodePools: "Auto"}),
			checkAssignments(h.w),
			checkWrites(h.w, 2),
		),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check:  checkNAP(h.w, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}),
			},
			{
				PreConfig:   func() { createNAPNode(t, h.c, node) },
				Config:      cfg,
				Destroy:     true,
				ExpectError: regexp.MustCompile(`(?s)Cannot switch node provisioning back to Manual.*Still\s+present:\s+node\s+` + node + `\s+\(NodePool\s+default\)`),
			},
			{
				// Nothing was changed by the refused destroy.
				PreConfig: func() { deleteNode(t, h.c, node) },
				Config:    cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					checkNAP(h.w, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}),
					checkAssignments(h.w, ownID(subnet)),
					checkWrites(h.w, 1),
				),
			},
		},
	})
}

// Self-hosted Karpenter: mode Manual, CRDs installed by the provider. A missing CRD fails the
// wait with its name; manage_crds installs it with server-side apply; deleting it again is
// drift that the next plan repairs.
func TestAccNAPManualModeManagesCRDs(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Manual"}, true)
	crd := "aksnodeclasses.karpenter.azure.com"
	grant := fmt.Sprintf("  network_contributor_scopes = [%q]", subnet)
	defer reinstallCRDs(t, h.c)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			checkWrites(h.w, 0),
			checkAssignments(h.w),
			// Destroy never deletes CRDs: that would delete every NodePool and node class.
			check(func() error { return crdEstablished(h.c, crd) }),
		),
		Steps: []resource.TestStep{
			{
				// The wait fails with the missing CRD's name, and the grant made before it is
				// removed again.
				PreConfig:   func() { deleteCRD(t, h.c, crd) },
				Config:      h.config(grant + "\n  mode = \"Manual\"\n  timeouts = { create = \"3s\" }"),
				ExpectError: regexp.MustCompile(`(?s)Karpenter CRDs are not ready.*` + regexp.QuoteMeta(crd) + `\s+\(not\s+installed\)`),
			},
			{
				PreConfig: func() {
					if n := h.w.Count("RoleAssignmentsClient.Create", ""); n != 1 {
						t.Errorf("%d grants created by the failed apply; the test needs one", n)
					}
					after(t, checkAssignments(h.w))
				},
				Config: h.config(grant + "\n  mode = \"Manual\"\n  manage_crds = true"),
				Check: resource.ComposeAggregateTestCheckFunc(
					check(func() error { return crdEstablished(h.c, crd) }),
					check(func() error { return crdManagedBy(h.c, crd, "terraform-provider-karpenter") }),
					resource.TestCheckResourceAttr(addr, "crds_established", "true"),
					resource.TestCheckResourceAttr(addr, "effective_mode", "Manual"),
					checkWrites(h.w, 0),
					checkAssignments(h.w, ownID(subnet)),
				),
			},
			{
				PreConfig: func() { deleteCRD(t, h.c, crd) },
				Config:    h.config(grant + "\n  mode = \"Manual\"\n  manage_crds = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: check(func() error { return crdEstablished(h.c, crd) }),
			},
			{
				// CRDs another provider version installed (another bundle) are upgraded.
				PreConfig: func() { setCRDBundle(t, h.c, crd, "older") },
				Config:    h.config(grant + "\n  mode = \"Manual\"\n  manage_crds = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: check(func() error {
					if got := crdBundle(t, h.c, crd); got != crds.Bundle() {
						return fmt.Errorf("CRD %s bundle %q after the apply, want %q", crd, got, crds.Bundle())
					}
					return nil
				}),
			},
		},
	})
}

// A cluster deleted outside Terraform leaves the state; the next plan creates the resource.
func TestAccNAPClusterDeletedOutsideTerraform(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Manual"}, false)
	cfg := h.config("  wait_for_crds = false")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig:          h.w.RemoveCluster,
				Config:             cfg,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// Wrong IDs and impossible combinations fail at plan time, on the attribute, without Azure.
func TestAccNAPInvalidConfigFailsAtPlan(t *testing.T) {
	cluster := "/subscriptions/" + sub + "/resourceGroups/" + rg + "/providers/Microsoft.ContainerService/managedClusters/" + name
	cases := map[string]struct{ body, want string }{
		"cluster_id of another type": {
			fmt.Sprintf("cluster_id = %q", vnet),
			`(?s)Invalid AKS cluster ID.*Microsoft.Network/virtualNetworks`,
		},
		"cluster_id without resource group": {
			`cluster_id = "/subscriptions/` + sub + `/providers/Microsoft.ContainerService/managedClusters/x"`,
			`(?s)Invalid AKS cluster ID.*no\s+subscription\s+or\s+resource\s+group`,
		},
		"scope that is not a network": {
			fmt.Sprintf("cluster_id = %q\n  network_contributor_scopes = [%q]", cluster, cluster),
			`(?s)Invalid network contributor scope.*virtual\s+network`,
		},
		"same scope twice": {
			fmt.Sprintf("cluster_id = %q\n  network_contributor_scopes = [%q, %q]", cluster, subnet, strings.ToUpper(subnet)),
			`Duplicate network contributor scope`,
		},
		"manage_crds with Auto": {
			fmt.Sprintf("cluster_id = %q\n  manage_crds = true", cluster),
			`(?s)manage_crds needs mode = "Manual"`,
		},
		"unknown mode": {
			fmt.Sprintf("cluster_id = %q\n  mode = \"Automatic\"", cluster),
			`(?s)mode.*value must be one of`,
		},
	}
	for label, tc := range cases {
		t.Run(label, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(),
				Steps: []resource.TestStep{{
					Config:      "resource \"karpenter_aks_node_auto_provisioning\" \"bad\" {\n  " + tc.body + "\n}\n",
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

// expectChange is a plan check that the resource's attribute goes from before to after, so a
// drift test proves the plan saw the live value, not just that some update is planned.
type expectChangeCheck struct{ attr, before, after string }

func expectChange(attr, before, after string) plancheck.PlanCheck {
	return expectChangeCheck{attr, before, after}
}

func (e expectChangeCheck) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != addr {
			continue
		}
		b, _ := rc.Change.Before.(map[string]any)
		a, _ := rc.Change.After.(map[string]any)
		if b[e.attr] != e.before || a[e.attr] != e.after {
			resp.Error = fmt.Errorf("%s planned %v -> %v, want %s -> %s", e.attr, b[e.attr], a[e.attr], e.before, e.after)
		}
		return
	}
	resp.Error = fmt.Errorf("no planned change for %s", addr)
}
