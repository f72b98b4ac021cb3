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

	awsclient "github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/aws"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/connect"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/validators"
)

// ClusterAttribute is the attribute naming the cluster a resource is managed in, when not the
// provider's own: one provider configuration and one for_each over clusters × objects then
// manage a fleet. Like id and timeouts, it is not part of the object.
const ClusterAttribute = "cluster"

// ImportClusterSeparator separates the cluster from the name in an import ID:
// <aks_cluster_id>//<name> or <eks_cluster_arn>//<name>. A Kubernetes name never contains "/",
// and neither ID ends with one or holds "//", so the split is unambiguous.
const ImportClusterSeparator = "//"

func (r *Resource) clusterAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: fmt.Sprintf("The cluster this %s is managed in, when not the one the provider's `kubernetes` block connects to: "+
			"with it, one provider configuration and one `for_each` over clusters × objects manage a fleet. "+
			"Name the cluster by exactly one of `aks_cluster_id` and `eks_cluster_arn`. "+
			"The provider reaches an AKS cluster through the Azure API with its `azure` credentials, as it does for `kubernetes.aks_cluster_id`, "+
			"and an EKS cluster through the EKS API with its `aws` credentials, as it does for `kubernetes.eks_cluster_name`: on first use, "+
			"once per cluster for all the resources that name it, with the provider's `kubernetes.qps` and `burst` per cluster; a cluster that cannot be reached fails only its own resources. "+
			"Plan-time checks of this resource see only the resources of the same cluster (a NodePool's node class, the grants of the NAP resource of that cluster). "+
			"Moving the object to another cluster replaces it; a resource without `cluster` belongs to the provider's cluster. "+
			"Import with the ID `<aks_cluster_id>//<name>` or `<eks_cluster_arn>//<name>`. Not part of the Kubernetes object.", r.kind.GVK.Kind),
		PlanModifiers: []planmodifier.Object{replaceOnOtherCluster{r}},
		Validators:    []validator.Object{oneClusterID{}},
		Attributes: map[string]schema.Attribute{
			"aks_cluster_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Resource ID of the AKS cluster (`/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<name>`). " +
					"Changing it replaces the resource (unless it names the same cluster, in another letter case). Conflicts with `eks_cluster_arn`.",
				Validators: []validator.String{validators.AKSClusterID()},
			},
			"eks_cluster_arn": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "ARN of the EKS cluster (`arn:<partition>:eks:<region>:<account>:cluster/<name>`, e.g. `" + awsclient.ExampleClusterARN + "`). " +
					"The provider calls EKS in the ARN's region and checks that the cluster it finds is of the ARN's account. Changing it replaces the resource. Conflicts with `aks_cluster_id`.",
				Validators: []validator.String{validators.EKSClusterARN()},
			},
			"use_admin_credentials": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "With `aks_cluster_id`, reach the cluster with its local admin credentials (`true`) or with Entra ID (`false`). " +
					"Unset: as the provider's `kubernetes.use_admin_credentials` says. Only for clusters with local accounts enabled; not with `eks_cluster_arn`. Changing it does not replace the resource.",
			},
			"region": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Region of the cluster (e.g. `westeurope`, `eu-west-1`), which this resource's plan-time checks price and check against instead of the provider's `region`. " +
					"Unset: the region of `eks_cluster_arn`, else the provider's `region`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"name": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "A label for the cluster in diagnostics and errors (e.g. `prod-weu`); the ID names it otherwise.",
			},
		},
	}
}

// oneClusterID checks that the cluster attribute names its cluster once: by AKS resource ID
// or by EKS ARN, and asks for admin credentials only of an AKS cluster.
type oneClusterID struct{}

func (oneClusterID) Description(context.Context) string {
	return "exactly one of aks_cluster_id and eks_cluster_arn; use_admin_credentials only with aks_cluster_id"
}

func (v oneClusterID) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (oneClusterID) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	attrs := req.ConfigValue.Attributes()
	set := func(name string) (bool, bool) {
		v, ok := attrs[name]
		if !ok || v == nil || v.IsNull() {
			return false, true
		}
		return true, !v.IsUnknown()
	}
	aks, aksKnown := set("aks_cluster_id")
	eks, eksKnown := set("eks_cluster_arn")
	admin, _ := set("use_admin_credentials")
	const valid = "Name the cluster by aks_cluster_id (e.g. \"/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<name>\") " +
		"or by eks_cluster_arn (e.g. \"" + awsclient.ExampleClusterARN + "\")."
	switch {
	case aks && eks:
		resp.Diagnostics.AddAttributeError(req.Path.AtName("eks_cluster_arn"), "Conflicting cluster IDs",
			fmt.Sprintf("%s sets both aks_cluster_id and eks_cluster_arn; a resource lives in one cluster. %s", req.Path, valid))
	case !aks && !eks && aksKnown && eksKnown:
		resp.Diagnostics.AddAttributeError(req.Path, "Missing cluster ID",
			fmt.Sprintf("%s names no cluster. %s Without the cluster attribute the resource is managed in the provider's cluster.", req.Path, valid))
	case eks && admin:
		resp.Diagnostics.AddAttributeError(req.Path.AtName("use_admin_credentials"), "Admin credentials of an EKS cluster",
			fmt.Sprintf("%s: use_admin_credentials selects an AKS cluster's local admin kubeconfig; an EKS cluster is reached with the provider's aws credentials "+
				"(choose the identity with aws.profile or aws.assume_role). Remove use_admin_credentials, or name an AKS cluster with aks_cluster_id.", req.Path))
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
	var aksKnown, eksKnown, known bool
	t.AKSClusterID, aksKnown = str("aks_cluster_id")
	t.EKSClusterARN, eksKnown = str("eks_cluster_arn")
	t.IDUnknown = !aksKnown || !eksKnown
	t.Region, known = str("region")
	t.RegionUnknown = !known
	if t.Region == "" && known && t.EKSClusterARN != "" {
		// An EKS cluster's region is in its ARN: the pools are priced there, not in the
		// provider's region (which may be another cloud's).
		if a, err := awsclient.ParseClusterARN(t.EKSClusterARN); err == nil {
			t.Region = a.Region
		}
	}
	if !eksKnown && t.Region == "" {
		t.RegionUnknown = true // an ARN known after apply may name any region
	}
	if v, ok := m["use_admin_credentials"]; ok && !v.IsNull() && v.IsKnown() {
		var b bool
		_ = v.As(&b)
		t.Admin = &b
	}
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
	if t.ID() == "" {
		return ""
	}
	k := connect.ClusterKey(t.ID())
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
// cluster), "<aks_cluster_id>//<name>" or "<eks_cluster_arn>//<name>". An ARN holds a "/"
// (cluster/<name>) but never "//", and neither ID ends with "/".
func parseImportID(id string) (cluster connect.Cluster, name string, err error) {
	i := strings.LastIndex(id, ImportClusterSeparator)
	if i < 0 {
		return connect.Cluster{}, id, nil
	}
	clusterID, name := id[:i], id[i+len(ImportClusterSeparator):]
	const forms = "<name>, or <aks_cluster_id>" + ImportClusterSeparator + "<name> or <eks_cluster_arn>" + ImportClusterSeparator + "<name> for a resource with a cluster attribute"
	if name == "" || strings.Contains(name, "/") {
		return connect.Cluster{}, "", fmt.Errorf("the import ID %q has no object name after %q: use %s", id, ImportClusterSeparator, forms)
	}
	if strings.HasPrefix(clusterID, "arn:") {
		if _, perr := awsclient.ParseClusterARN(clusterID); perr != nil {
			return connect.Cluster{}, "", fmt.Errorf("the cluster part of the import ID %q is not an EKS cluster ARN: %v. Use <eks_cluster_arn>%s<name>, e.g. %s%s<name>",
				id, perr, ImportClusterSeparator, awsclient.ExampleClusterARN, ImportClusterSeparator)
		}
		return connect.Cluster{EKSClusterARN: clusterID}, name, nil
	}
	if _, perr := azure.ParseClusterID(clusterID); perr != nil {
		return connect.Cluster{}, "", fmt.Errorf("the cluster part of the import ID %q is not an AKS cluster ID or an EKS cluster ARN: %v. Use <aks_cluster_id>%s<name>, e.g. "+
			"/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<cluster>%s<name>, or <eks_cluster_arn>%s<name>, e.g. %s%s<name>",
			id, perr, ImportClusterSeparator, ImportClusterSeparator, ImportClusterSeparator, awsclient.ExampleClusterARN, ImportClusterSeparator)
	}
	return connect.Cluster{AKSClusterID: clusterID}, name, nil
}

// clusterPath is the attribute path of the ID that names the cluster c, for diagnostics.
func clusterPath(c connect.Cluster) path.Path {
	if c.EKSClusterARN != "" {
		return path.Root(ClusterAttribute).AtName("eks_cluster_arn")
	}
	return path.Root(ClusterAttribute).AtName("aks_cluster_id")
}
