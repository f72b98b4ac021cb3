package azure

import (
	"fmt"
	"sort"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/containerservice/armcontainerservice/v6"
)

// Severity of a prerequisite finding.
type Severity int

const (
	// Warning is a configuration NAP works with but AKS does not recommend.
	Warning Severity = iota
	// Error is a configuration AKS refuses node auto provisioning for.
	Error
)

// Finding is one prerequisite that the live cluster does not meet.
type Finding struct {
	Severity Severity
	// Check names the prerequisite, stable for tests and logs (e.g. "network-plugin").
	Check string
	// Summary is a short title; Detail says what is wrong and what to change.
	Summary, Detail string
}

// Findings are the result of CheckPrerequisites.
type Findings []Finding

// Errors returns the findings that block enabling node auto provisioning.
func (f Findings) Errors() Findings { return f.filter(Error) }

// Warnings returns the findings that do not block it.
func (f Findings) Warnings() Findings { return f.filter(Warning) }

func (f Findings) filter(s Severity) Findings {
	var out Findings
	for _, x := range f {
		if x.Severity == s {
			out = append(out, x)
		}
	}
	return out
}

// Has says whether a finding for the named check is present.
func (f Findings) Has(check string) bool {
	for _, x := range f {
		if x.Check == check {
			return true
		}
	}
	return false
}

// CheckPrerequisites checks the live cluster against what AKS requires for node auto
// provisioning (aka.ms/aks/nap) in the settings want, so that an unsupported cluster fails
// with a precise message before anything is changed, rather than with a generic error from a
// long-running operation.
func CheckPrerequisites(mc *armcontainerservice.ManagedCluster, want NodeProvisioning) Findings {
	var f Findings
	add := func(sev Severity, check, summary, detail string, args ...any) {
		f = append(f, Finding{Severity: sev, Check: check, Summary: summary, Detail: fmt.Sprintf(detail, args...)})
	}
	p := mc.Properties
	if p == nil {
		add(Error, "properties", "Cluster properties missing", "Azure returned the managed cluster without properties, so its prerequisites for node auto provisioning cannot be checked.")
		return f
	}

	if p.PowerState != nil && p.PowerState.Code != nil && strings.EqualFold(string(*p.PowerState.Code), string(armcontainerservice.CodeStopped)) {
		add(Error, "power-state", "Cluster is stopped",
			"The cluster's powerState is Stopped, and AKS does not change a stopped cluster. Start it (az aks start) and apply again.")
	}

	np := p.NetworkProfile
	if np == nil {
		np = &armcontainerservice.NetworkProfile{}
	}
	plugin := str(np.NetworkPlugin)
	switch {
	case !strings.EqualFold(plugin, string(armcontainerservice.NetworkPluginAzure)):
		name := plugin
		if name == "" {
			name = "not set"
		}
		add(Error, "network-plugin", "Network plugin is not Azure CNI",
			"Node auto provisioning requires Azure CNI, but the cluster's networkProfile.networkPlugin is %s. Migrate the cluster to Azure CNI (networkPlugin \"azure\", preferably networkPluginMode \"overlay\"), e.g. network_plugin = \"azure\" and network_plugin_mode = \"overlay\" in azurerm_kubernetes_cluster.", name)
	default:
		if !strings.EqualFold(str(np.NetworkPluginMode), string(armcontainerservice.NetworkPluginModeOverlay)) {
			add(Warning, "network-plugin-mode", "Azure CNI Overlay recommended",
				"The cluster uses Azure CNI without overlay, so every pod takes an address from the node subnet; AKS recommends Azure CNI Overlay (networkPluginMode \"overlay\") for node auto provisioning.")
		}
		if !strings.EqualFold(str(np.NetworkDataplane), string(armcontainerservice.NetworkDataplaneCilium)) {
			add(Warning, "network-dataplane", "Cilium dataplane recommended",
				"The cluster's networkProfile.networkDataplane is %s; AKS recommends Azure CNI powered by Cilium (networkDataplane \"cilium\") for node auto provisioning.", orDefault(str(np.NetworkDataplane), "azure"))
		}
	}
	if strings.EqualFold(str(np.NetworkPolicy), string(armcontainerservice.NetworkPolicyCalico)) {
		add(Error, "network-policy", "Calico network policy is not supported",
			"The cluster's networkProfile.networkPolicy is calico, which node auto provisioning does not support. Use Cilium (networkPolicy \"cilium\" with networkDataplane \"cilium\") or Azure network policy instead.")
	}
	for _, fam := range np.IPFamilies {
		if fam != nil && strings.EqualFold(string(*fam), string(armcontainerservice.IPFamilyIPv6)) {
			add(Error, "ip-families", "IPv6 is not supported",
				"The cluster's networkProfile.ipFamilies include IPv6 (dual-stack or IPv6-only), which node auto provisioning does not support. It needs an IPv4-only cluster.")
			break
		}
	}

	if !usesManagedIdentity(mc) {
		add(Error, "identity", "Cluster uses a service principal",
			"The cluster authenticates to Azure with a service principal (servicePrincipalProfile), but node auto provisioning needs a managed identity. Update the cluster to a system- or user-assigned identity (az aks update --enable-managed-identity), then apply again.")
	}

	var windows, customSubnet []string
	for _, ap := range p.AgentPoolProfiles {
		if ap == nil {
			continue
		}
		name := str(ap.Name)
		if ap.OSType != nil && strings.EqualFold(string(*ap.OSType), string(armcontainerservice.OSTypeWindows)) {
			windows = append(windows, name)
		}
		if ap.VnetSubnetID != nil && *ap.VnetSubnetID != "" {
			customSubnet = append(customSubnet, name)
		}
	}
	if len(windows) > 0 {
		add(Error, "os-type", "Windows agent pools are not supported",
			"Node auto provisioning provisions Linux nodes only and is not supported on clusters with Windows agent pools: %s. Remove the Windows pools or keep this cluster on node pools without NAP.", list(windows))
	}
	// An unset SKU is AKS's default, Standard.
	if sku := str(np.LoadBalancerSKU); len(customSubnet) > 0 && sku != "" && !strings.EqualFold(sku, string(armcontainerservice.LoadBalancerSKUStandard)) {
		add(Error, "load-balancer-sku", "Standard load balancer required",
			"The cluster uses a custom virtual network (agent pool(s) %s have vnetSubnetID) with load balancer SKU %s; node auto provisioning on a custom VNet requires the Standard load balancer.", list(customSubnet), sku)
	}
	if c := checkClusterAutoscaler(p.AgentPoolProfiles, want); c != nil {
		f = append(f, *c)
	}
	return f
}

// Taints of the documented way to run node auto provisioning beside the cluster autoscaler
// (aka.ms/aks/nap, "Migrate from cluster autoscaler", path 2): the autoscaler's agent pools
// take the first, every NAP NodePool the second, so that the two never scale up for the same
// pending pods.
const (
	CASBlockTaint = "autoscaling.azure.com/cas-block=true:NoSchedule"
	NAPBlockTaint = "autoscaling.azure.com/nap-block"
)

// checkClusterAutoscaler judges agent pools that run the cluster autoscaler. AKS runs node auto
// provisioning beside it only behind the subscription feature AllowClusterAutoscalerAndNAP,
// with NAP's default NodePools off (they cannot carry the taint) and taints on both sides; a
// bridge for migrating, not a steady state. Default pools on is an error, the rest a warning
// that lists what AKS asks for, since the feature registration cannot be read here.
func checkClusterAutoscaler(pools []*armcontainerservice.ManagedClusterAgentPoolProfile, want NodeProvisioning) *Finding {
	var autoscaled, untainted []string
	for _, ap := range pools {
		if ap == nil || ap.EnableAutoScaling == nil || !*ap.EnableAutoScaling {
			continue
		}
		autoscaled = append(autoscaled, str(ap.Name))
		tainted := false
		for _, t := range ap.NodeTaints {
			tainted = tainted || (t != nil && strings.EqualFold(*t, CASBlockTaint))
		}
		if !tainted {
			untainted = append(untainted, str(ap.Name))
		}
	}
	if len(autoscaled) == 0 {
		return nil
	}
	ways := fmt.Sprintf("Either disable the cluster autoscaler on %s (auto_scaling_enabled = false / az aks nodepool update --disable-cluster-autoscaler), "+
		"or run both for a migration: register the subscription feature AllowClusterAutoscalerAndNAP (az feature register --namespace Microsoft.ContainerService --name AllowClusterAutoscalerAndNAP), "+
		"set default_node_pools = %q, taint those agent pools %s and every NodePool %s (effect NoSchedule), and give each workload the toleration of the side it runs on.",
		list(autoscaled), DefaultNodePoolsNone, CASBlockTaint, NAPBlockTaint)
	if !strings.EqualFold(want.EffectiveDefaultNodePools(), DefaultNodePoolsNone) {
		return &Finding{Severity: Error, Check: "cluster-autoscaler", Summary: "Cluster autoscaler is enabled",
			Detail: fmt.Sprintf("The cluster autoscaler is enabled on agent pool(s) %s, and NAP's default NodePools (default_node_pools = %q) would scale up for the same pending pods. %s",
				list(autoscaled), want.EffectiveDefaultNodePools(), ways)}
	}
	detail := fmt.Sprintf("The cluster autoscaler stays enabled on agent pool(s) %s next to node auto provisioning. AKS allows this only where the subscription feature AllowClusterAutoscalerAndNAP "+
		"is registered, and both scalers react to the same pending pods unless taints keep them apart: %s on the autoscaler's pools, %s on every NodePool.",
		list(autoscaled), CASBlockTaint, NAPBlockTaint)
	if len(untainted) > 0 {
		detail += fmt.Sprintf(" Agent pool(s) %s lack the taint %s.", list(untainted), CASBlockTaint)
	}
	detail += " Meant for a migration: disable the autoscaler once the workloads have moved to NAP's nodes."
	return &Finding{Severity: Warning, Check: "cluster-autoscaler", Summary: "Cluster autoscaler beside node auto provisioning", Detail: detail}
}

// usesManagedIdentity tells managed identity from service principal clusters. AKS reports
// servicePrincipalProfile.clientId "msi" for managed identity clusters.
func usesManagedIdentity(mc *armcontainerservice.ManagedCluster) bool {
	if mc.Identity == nil || mc.Identity.Type == nil || strings.EqualFold(string(*mc.Identity.Type), string(armcontainerservice.ResourceIdentityTypeNone)) {
		return false
	}
	if sp := mc.Properties.ServicePrincipalProfile; sp != nil && sp.ClientID != nil && *sp.ClientID != "" && !strings.EqualFold(*sp.ClientID, "msi") {
		return false
	}
	return true
}

// ClusterPrincipal returns the object (principal) ID of the cluster's control plane identity,
// the one node auto provisioning acts as in the node subnets.
func ClusterPrincipal(mc *armcontainerservice.ManagedCluster) (string, error) {
	id := mc.Identity
	if id == nil || id.Type == nil {
		return "", fmt.Errorf("the cluster has no managed identity")
	}
	switch {
	case strings.EqualFold(string(*id.Type), string(armcontainerservice.ResourceIdentityTypeSystemAssigned)):
		if id.PrincipalID == nil || *id.PrincipalID == "" {
			return "", fmt.Errorf("the cluster's system-assigned identity has no principal ID yet")
		}
		return *id.PrincipalID, nil
	case strings.EqualFold(string(*id.Type), string(armcontainerservice.ResourceIdentityTypeUserAssigned)):
		keys := make([]string, 0, len(id.UserAssignedIdentities))
		for k := range id.UserAssignedIdentities {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if v := id.UserAssignedIdentities[k]; v != nil && v.PrincipalID != nil && *v.PrincipalID != "" {
				return *v.PrincipalID, nil
			}
		}
		return "", fmt.Errorf("the cluster's user-assigned identity reports no principal ID")
	}
	return "", fmt.Errorf("the cluster's identity type is %s, not a managed identity", *id.Type)
}

// NodeSubnets returns the custom subnets the cluster's agent pools use, sorted and without
// duplicates: the places NAP's nodes are likely to need Network Contributor on.
func NodeSubnets(mc *armcontainerservice.ManagedCluster) []string {
	seen := map[string]bool{}
	var out []string
	if mc.Properties == nil {
		return nil
	}
	for _, ap := range mc.Properties.AgentPoolProfiles {
		if ap == nil || ap.VnetSubnetID == nil || *ap.VnetSubnetID == "" {
			continue
		}
		k := strings.ToLower(*ap.VnetSubnetID)
		if !seen[k] {
			seen[k] = true
			out = append(out, *ap.VnetSubnetID)
		}
	}
	sort.Strings(out)
	return out
}

func str[T ~string](p *T) string {
	if p == nil {
		return ""
	}
	return string(*p)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func list(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
