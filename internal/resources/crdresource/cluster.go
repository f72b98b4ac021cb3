package crdresource

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider/connect"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/validators"
)

// ClusterAttribute is the attribute naming the cluster a resource is managed in, when not the
// provider's own: one provider configuration and one for_each over clusters × objects then
// manage a fleet. Like id and timeouts, it is not part of the object.
const ClusterAttribute = "cluster"

// ImportClusterSeparator separates the cluster from the name in an import ID:
// <aks_cluster_id>//<name>. A Kubernetes name never contains "/", and an AKS resource ID
// never ends with one, so the split is unambiguous.
const ImportClusterSeparator = "//"

func (r *Resource) clusterAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: fmt.Sprintf("The cluster this %s is managed in, when not the one the provider's `kubernetes` block connects to: "+
			"with it, one provider configuration and one `for_each` over clusters × objects manage a fleet. "+
			"The provider reaches the cluster through the Azure API with its `azure` credentials, as it does for `kubernetes.aks_cluster_id`: on first use, "+
			"once per cluster for all the resources that name it, with the provider's `kubernetes.qps` and `burst` per cluster. "+
			"Plan-time checks of this resource see only the resources of the same cluster (a NodePool's node class, the grants of the NAP resource of that cluster). "+
			"Moving the object to another cluster replaces it; a resource without `cluster` belongs to the provider's cluster. "+
			"Import with the ID `<aks_cluster_id>//<name>`. Not part of the Kubernetes object.", r.kind.GVK.Kind),
		PlanModifiers: []planmodifier.Object{replaceOnOtherCluster{r}},
		Attributes: map[string]schema.Attribute{
			"aks_cluster_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Resource ID of the AKS cluster (`/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<name>`). " +
					"Changing it replaces the resource (unless it names the same cluster, in another letter case).",
				Validators: []validator.String{validators.AKSClusterID()},
			},
			"region": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Azure region of the cluster (e.g. `westeurope`), which this resource's plan-time checks price and check against instead of the provider's `region`. " +
					"Unset: the provider's `region`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "A label for the cluster in diagnostics and errors (e.g. `prod-weu`); the ID names it otherwise.",
			},
		},
	}
}

// target reads the cluster attribute of a resource value (a plan, a state or a configuration).
func target(v tftypes.Value) providerdata.Target { return targetOf(attributes(v)) }

// targetOf reads the cluster attribute from a resource's attribute values.
func targetOf(values map[string]tftypes.Value) providerdata.Target {
	c, ok := values[ClusterAttribute]
	if !ok || c.IsNull() {
		return providerdata.Target{}
	}
	if !c.IsKnown() {
		return providerdata.Target{IDUnknown: true, RegionUnknown: true}
	}
	var t providerdata.Target
	m := attributes(c)
	str := func(name string) (string, bool) {
		v, ok := m[name]
		if !ok || v.IsNull() {
			return "", true
		}
		if !v.IsKnown() {
			return "", false
		}
		var s string
		_ = v.As(&s)
		return s, true
	}
	var known bool
	t.AKSClusterID, known = str("aks_cluster_id")
	t.IDUnknown = !known
	t.Region, known = str("region")
	t.RegionUnknown = !known
	t.Name, _ = str("name")
	return t
}

// dataFor is the provider data of the resource whose plan, state or configuration is v: scoped
// to its cluster. nil when the provider is not configured.
func (r *Resource) dataFor(v tftypes.Value) *providerdata.Data {
	if r.data == nil {
		return nil
	}
	return r.data.ForCluster(target(v))
}

// clusterKey is the key of the cluster a target names ("" = the provider's own).
func (r *Resource) clusterKey(t providerdata.Target) string {
	if t.AKSClusterID == "" {
		return ""
	}
	k := connect.ClusterKey(t.AKSClusterID)
	if r.data != nil && k == r.data.OwnCluster {
		return ""
	}
	return k
}

// replaceOnOtherCluster replaces the resource when its cluster changes: setting, changing or
// removing `cluster` so that another cluster is named. A new region or label, or naming the
// provider's own cluster explicitly, is no move and updates the state only.
type replaceOnOtherCluster struct{ r *Resource }

func (replaceOnOtherCluster) Description(context.Context) string {
	return "moving the object to another cluster replaces it"
}

func (m replaceOnOtherCluster) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (m replaceOnOtherCluster) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return // create or destroy
	}
	before, after := objectTarget(ctx, req.StateValue), objectTarget(ctx, req.PlanValue)
	if after.IDUnknown || m.r.clusterKey(before) != m.r.clusterKey(after) {
		resp.RequiresReplace = true
	}
}

func objectTarget(ctx context.Context, v basetypes.ObjectValue) providerdata.Target {
	tv, err := v.ToTerraformValue(ctx)
	if err != nil {
		return providerdata.Target{}
	}
	return target(tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{ClusterAttribute: tv.Type()}},
		map[string]tftypes.Value{ClusterAttribute: tv}))
}

// parseImportID splits an import ID into the cluster and the name: "<name>" (the provider's
// cluster) or "<aks_cluster_id>//<name>".
func parseImportID(id string) (clusterID, name string, err error) {
	i := strings.LastIndex(id, ImportClusterSeparator)
	if i < 0 {
		return "", id, nil
	}
	clusterID, name = id[:i], id[i+len(ImportClusterSeparator):]
	if name == "" || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("the import ID %q has no object name after %q: use <name>, or <aks_cluster_id>%s<name> for a resource with a cluster attribute", id, ImportClusterSeparator, ImportClusterSeparator)
	}
	if _, perr := azure.ParseClusterID(clusterID); perr != nil {
		return "", "", fmt.Errorf("the cluster part of the import ID %q is not an AKS cluster ID: %v. Use <aks_cluster_id>%s<name>, e.g. "+
			"/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<cluster>%s<name>", id, perr, ImportClusterSeparator, ImportClusterSeparator)
	}
	return clusterID, name, nil
}

// clusterPath is the attribute path of the cluster ID, for diagnostics.
var clusterPath = path.Root(ClusterAttribute).AtName("aks_cluster_id")
