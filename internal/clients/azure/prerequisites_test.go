package azure_test

import (
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure/armfake"
)

// enable is what the NAP resource asks for by default: mode Auto, NAP's default NodePools on.
var enable = azure.NodeProvisioning{Mode: azure.ModeAuto}

func compliant() armcontainerservice.ManagedCluster {
	return armfake.Compliant(napSubnet, napPrincipal)
}

func TestPrerequisitesCompliantCluster(t *testing.T) {
	c := compliant()
	if f := azure.CheckPrerequisites(&c, enable); len(f) != 0 {
		t.Fatalf("findings on a compliant cluster: %+v", f)
	}
}

// Each unmet prerequisite is its own error, naming what to change.
func TestPrerequisiteFailures(t *testing.T) {
	cases := []struct {
		check  string
		change func(*armcontainerservice.ManagedCluster)
		// mention must appear in the detail: the thing to change, or what is affected.
		mention []string
	}{
		{"network-plugin", func(c *armcontainerservice.ManagedCluster) {
			c.Properties.NetworkProfile.NetworkPlugin = to.Ptr(armcontainerservice.NetworkPluginKubenet)
		}, []string{"kubenet", `networkPlugin "azure"`}},
		{"network-plugin", func(c *armcontainerservice.ManagedCluster) { c.Properties.NetworkProfile = nil }, []string{"not set"}},
		{"network-policy", func(c *armcontainerservice.ManagedCluster) {
			c.Properties.NetworkProfile.NetworkPolicy = to.Ptr(armcontainerservice.NetworkPolicyCalico)
		}, []string{"calico", "cilium"}},
		{"ip-families", func(c *armcontainerservice.ManagedCluster) {
			c.Properties.NetworkProfile.IPFamilies = append(c.Properties.NetworkProfile.IPFamilies, to.Ptr(armcontainerservice.IPFamilyIPv6))
		}, []string{"IPv6", "IPv4-only"}},
		{"identity", func(c *armcontainerservice.ManagedCluster) {
			c.Identity = nil
			c.Properties.ServicePrincipalProfile = &armcontainerservice.ManagedClusterServicePrincipalProfile{ClientID: to.Ptr("11111111-1111-1111-1111-111111111111")}
		}, []string{"service principal", "managed identity"}},
		{"identity", func(c *armcontainerservice.ManagedCluster) {
			c.Identity.Type = to.Ptr(armcontainerservice.ResourceIdentityTypeNone)
		}, []string{"service principal"}},
		{"cluster-autoscaler", func(c *armcontainerservice.ManagedCluster) {
			c.Properties.AgentPoolProfiles = append(c.Properties.AgentPoolProfiles,
				&armcontainerservice.ManagedClusterAgentPoolProfile{Name: to.Ptr("user1"), EnableAutoScaling: to.Ptr(true), OSType: to.Ptr(armcontainerservice.OSTypeLinux)},
				&armcontainerservice.ManagedClusterAgentPoolProfile{Name: to.Ptr("user2"), EnableAutoScaling: to.Ptr(true), OSType: to.Ptr(armcontainerservice.OSTypeLinux)})
		}, []string{`"user1", "user2"`, "disable", `default_node_pools = "Auto"`, "AllowClusterAutoscalerAndNAP"}},
		{"load-balancer-sku", func(c *armcontainerservice.ManagedCluster) {
			c.Properties.NetworkProfile.LoadBalancerSKU = to.Ptr(armcontainerservice.LoadBalancerSKUBasic)
		}, []string{`"system"`, "basic", "Standard"}},
		{"power-state", func(c *armcontainerservice.ManagedCluster) {
			c.Properties.PowerState.Code = to.Ptr(armcontainerservice.CodeStopped)
		}, []string{"Stopped", "az aks start"}},
		{"os-type", func(c *armcontainerservice.ManagedCluster) {
			c.Properties.AgentPoolProfiles = append(c.Properties.AgentPoolProfiles,
				&armcontainerservice.ManagedClusterAgentPoolProfile{Name: to.Ptr("win"), OSType: to.Ptr(armcontainerservice.OSTypeWindows)})
		}, []string{`"win"`, "Linux"}},
	}
	for _, tc := range cases {
		t.Run(tc.check+"/"+strings.Join(tc.mention, ","), func(t *testing.T) {
			c := compliant()
			tc.change(&c)
			f := azure.CheckPrerequisites(&c, enable)
			errs := f.Errors()
			if len(errs) != 1 || errs[0].Check != tc.check {
				t.Fatalf("errors = %+v, want exactly one %q", errs, tc.check)
			}
			for _, m := range tc.mention {
				if !strings.Contains(errs[0].Detail, m) {
					t.Errorf("detail does not mention %q: %s", m, errs[0].Detail)
				}
			}
		})
	}
}

// Issue 31 item 15: AKS runs NAP beside the cluster autoscaler behind the subscription feature
// AllowClusterAutoscalerAndNAP, with NAP's default NodePools off and taints on both sides
// (aka.ms/aks/nap, "Migrate from cluster autoscaler", path 2). That configuration is not
// refused: a warning says what AKS asks for, naming the autoscaled pools still without the
// cas-block taint.
func TestPrerequisiteClusterAutoscalerBesideNAPIsAWarning(t *testing.T) {
	c := compliant()
	c.Properties.AgentPoolProfiles = append(c.Properties.AgentPoolProfiles,
		&armcontainerservice.ManagedClusterAgentPoolProfile{Name: to.Ptr("cas1"), EnableAutoScaling: to.Ptr(true), NodeTaints: []*string{to.Ptr(azure.CASBlockTaint)}},
		&armcontainerservice.ManagedClusterAgentPoolProfile{Name: to.Ptr("cas2"), EnableAutoScaling: to.Ptr(true)})
	f := azure.CheckPrerequisites(&c, azure.NodeProvisioning{Mode: azure.ModeAuto, DefaultNodePools: azure.DefaultNodePoolsNone})
	if len(f.Errors()) != 0 {
		t.Fatalf("refused: %+v", f.Errors())
	}
	w := f.Warnings()
	if len(w) != 1 || w[0].Check != "cluster-autoscaler" {
		t.Fatalf("warnings = %+v, want one cluster-autoscaler warning", w)
	}
	for _, m := range []string{"AllowClusterAutoscalerAndNAP", `"cas1", "cas2"`, `Agent pool(s) "cas2" lack the taint ` + azure.CASBlockTaint, azure.NAPBlockTaint, "migration"} {
		if !strings.Contains(w[0].Detail, m) {
			t.Errorf("detail does not mention %q: %s", m, w[0].Detail)
		}
	}
	// Every autoscaled pool tainted: the warning stays (the feature cannot be checked), without the list.
	c.Properties.AgentPoolProfiles[len(c.Properties.AgentPoolProfiles)-1].NodeTaints = []*string{to.Ptr(azure.CASBlockTaint)}
	f = azure.CheckPrerequisites(&c, azure.NodeProvisioning{Mode: azure.ModeAuto, DefaultNodePools: azure.DefaultNodePoolsNone})
	if w := f.Warnings(); len(f.Errors()) != 0 || len(w) != 1 || strings.Contains(w[0].Detail, "lack the taint") {
		t.Fatalf("findings with every pool tainted = %+v", f)
	}
}

// Azure CNI without overlay or without Cilium works with NAP; AKS only recommends them.
func TestPrerequisiteRecommendationsAreWarnings(t *testing.T) {
	c := compliant()
	c.Properties.NetworkProfile.NetworkPluginMode = nil
	c.Properties.NetworkProfile.NetworkDataplane = to.Ptr(armcontainerservice.NetworkDataplaneAzure)
	c.Properties.NetworkProfile.NetworkPolicy = nil
	f := azure.CheckPrerequisites(&c, enable)
	if len(f.Errors()) != 0 {
		t.Fatalf("errors: %+v", f.Errors())
	}
	w := f.Warnings()
	if len(w) != 2 || !w.Has("network-plugin-mode") || !w.Has("network-dataplane") {
		t.Fatalf("warnings = %+v, want overlay and cilium recommendations", w)
	}
}

// Without a custom VNet the load balancer SKU does not matter.
func TestPrerequisiteLoadBalancerOnlyForCustomVNet(t *testing.T) {
	c := compliant()
	c.Properties.AgentPoolProfiles[0].VnetSubnetID = nil
	c.Properties.NetworkProfile.LoadBalancerSKU = to.Ptr(armcontainerservice.LoadBalancerSKUBasic)
	if f := azure.CheckPrerequisites(&c, enable); f.Has("load-balancer-sku") {
		t.Fatalf("findings = %+v", f)
	}
}

func TestPrerequisitesWithoutProperties(t *testing.T) {
	f := azure.CheckPrerequisites(&armcontainerservice.ManagedCluster{}, enable)
	if len(f.Errors()) != 1 || f.Errors()[0].Check != "properties" {
		t.Fatalf("findings = %+v", f)
	}
}

func TestClusterPrincipal(t *testing.T) {
	c := compliant()
	if p, err := azure.ClusterPrincipal(&c); err != nil || p != napPrincipal {
		t.Fatalf("system-assigned: %q, %v", p, err)
	}
	c.Identity = &armcontainerservice.ManagedClusterIdentity{
		Type: to.Ptr(armcontainerservice.ResourceIdentityTypeUserAssigned),
		UserAssignedIdentities: map[string]*armcontainerservice.ManagedServiceIdentityUserAssignedIdentitiesValue{
			"/subscriptions/s/resourceGroups/r/providers/Microsoft.ManagedIdentity/userAssignedIdentities/aks": {PrincipalID: to.Ptr("uami-principal")},
		},
	}
	if p, err := azure.ClusterPrincipal(&c); err != nil || p != "uami-principal" {
		t.Fatalf("user-assigned: %q, %v", p, err)
	}
	c.Identity = nil
	if _, err := azure.ClusterPrincipal(&c); err == nil {
		t.Fatal("no identity gave a principal")
	}
	c.Identity = &armcontainerservice.ManagedClusterIdentity{Type: to.Ptr(armcontainerservice.ResourceIdentityTypeSystemAssigned)}
	if _, err := azure.ClusterPrincipal(&c); err == nil {
		t.Fatal("a system-assigned identity without principal ID gave a principal")
	}
}

func TestNodeSubnets(t *testing.T) {
	c := compliant()
	c.Properties.AgentPoolProfiles = append(c.Properties.AgentPoolProfiles,
		&armcontainerservice.ManagedClusterAgentPoolProfile{Name: to.Ptr("b"), VnetSubnetID: to.Ptr(strings.ToUpper(napSubnet))},
		&armcontainerservice.ManagedClusterAgentPoolProfile{Name: to.Ptr("c"), VnetSubnetID: to.Ptr(napVNet + "/subnets/other")},
		&armcontainerservice.ManagedClusterAgentPoolProfile{Name: to.Ptr("d")})
	got := azure.NodeSubnets(&c)
	if len(got) != 2 || got[0] != napSubnet || got[1] != napVNet+"/subnets/other" {
		t.Fatalf("subnets = %v", got)
	}
}
