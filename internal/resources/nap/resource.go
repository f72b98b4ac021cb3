package nap

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/validators"
)

// Default timeouts. Switching the node provisioning mode is an AKS cluster update, which
// commonly takes 5-20 minutes; waiting for AKS to install the CRDs adds a few more.
const (
	defaultWriteTimeout = 60 * time.Minute
	defaultReadTimeout  = 5 * time.Minute
)

// Resource is karpenter_aks_node_auto_provisioning.
type Resource struct {
	data *providerdata.Data
}

var (
	_ resource.ResourceWithConfigure      = (*Resource)(nil)
	_ resource.ResourceWithValidateConfig = (*Resource)(nil)
	_ resource.ResourceWithModifyPlan     = (*Resource)(nil)
	_ resource.ResourceWithImportState    = (*Resource)(nil)
)

// New returns the resource, for the provider's Resources list.
func New() resource.Resource { return &Resource{} }

type model struct {
	ID                          types.String   `tfsdk:"id"`
	ClusterID                   types.String   `tfsdk:"cluster_id"`
	Mode                        types.String   `tfsdk:"mode"`
	DefaultNodePools            types.String   `tfsdk:"default_node_pools"`
	NetworkContributorScopes    types.Set      `tfsdk:"network_contributor_scopes"`
	ManageCRDs                  types.Bool     `tfsdk:"manage_crds"`
	WaitForCRDs                 types.Bool     `tfsdk:"wait_for_crds"`
	SwitchBackToManualOnDestroy types.Bool     `tfsdk:"switch_back_to_manual_on_destroy"`
	EffectiveMode               types.String   `tfsdk:"effective_mode"`
	PrincipalID                 types.String   `tfsdk:"principal_id"`
	RoleAssignmentIDs           types.Map      `tfsdk:"role_assignment_ids"`
	KubernetesVersion           types.String   `tfsdk:"kubernetes_version"`
	CRDsEstablished             types.Bool     `tfsdk:"crds_established"`
	Timeouts                    timeouts.Value `tfsdk:"timeouts"`
}

// scopes returns the configured scopes; unknown or null is none.
func (m *model) scopes(ctx context.Context) []string {
	var out []string
	if m.NetworkContributorScopes.IsNull() || m.NetworkContributorScopes.IsUnknown() {
		return nil
	}
	m.NetworkContributorScopes.ElementsAs(ctx, &out, false)
	return out
}

// scopesKnown says whether the scopes are known at plan time, every element included.
func (m *model) scopesKnown() bool {
	if m.NetworkContributorScopes.IsUnknown() {
		return false
	}
	for _, e := range m.NetworkContributorScopes.Elements() {
		if e.IsUnknown() {
			return false
		}
	}
	return true
}

func (m *model) want() azure.NodeProvisioning {
	return azure.NodeProvisioning{Mode: m.Mode.ValueString(), DefaultNodePools: m.DefaultNodePools.ValueString()}
}

func (r *Resource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_aks_node_auto_provisioning"
}

const description = "Makes an existing AKS cluster ready for Karpenter-managed nodes, in one resource instead of " +
	"azapi/azurerm settings, a hand-written role assignment and `kubectl` steps:\n\n" +
	"* sets the cluster's node provisioning mode (`properties.nodeProvisioningProfile`, AKS Node Auto Provisioning) " +
	"as a read-modify-write guarded by the cluster's ETag, after checking the live cluster against NAP's prerequisites;\n" +
	"* grants the cluster identity **Network Contributor** on the custom VNets or subnets the nodes use;\n" +
	"* waits until the `nodepools.karpenter.sh` and `aksnodeclasses.karpenter.azure.com` CRDs are Established, so that " +
	"`karpenter_nodepool` and `karpenter_aksnodeclass` resources in the same apply can depend on this one; for self-hosted " +
	"Karpenter (`mode = \"Manual\"`) it can install or upgrade the CRDs.\n\n" +
	"A cluster that already runs in the configured mode (for example because `azurerm_kubernetes_cluster` sets " +
	"`node_provisioning_profile`) is not written at all. Destroying the resource leaves NAP enabled unless " +
	"`switch_back_to_manual_on_destroy` is set. Import with the cluster's resource ID.\n\n" +
	"When the update outlasts `timeouts`, the apply fails but the update goes on in Azure, so the grants made for it stay; " +
	"the next apply waits for the running operation (AKS refuses writes until it ends), does not write a mode the cluster " +
	"already has, and takes the grants over."

func (r *Resource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: description,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The cluster's resource ID.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"cluster_id": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Resource ID of the AKS managed cluster, e.g. `azurerm_kubernetes_cluster.main.id` " +
					"(`/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<name>`). Changing it replaces the resource.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:    []validator.String{validators.AKSClusterID()},
			},
			"mode": schema.StringAttribute{
				Optional: true, Computed: true,
				Default: stringdefault.StaticString(azure.ModeAuto),
				MarkdownDescription: "Node provisioning mode: `Auto` (AKS runs Karpenter as Node Auto Provisioning) or `Manual` " +
					"(no NAP; for self-hosted Karpenter). Defaults to `Auto`. A change made outside Terraform shows in the next plan.",
				Validators: []validator.String{stringvalidator.OneOf(azure.ModeAuto, azure.ModeManual)},
			},
			"default_node_pools": schema.StringAttribute{
				Optional: true, Computed: true,
				Default: stringdefault.StaticString(azure.DefaultNodePoolsAuto),
				MarkdownDescription: "Which default Karpenter NodePools AKS creates when `mode` is `Auto`: `Auto` (the `default` and " +
					"`system-surge` pools) or `None` (only the NodePools you declare). Changing `Auto` to `None` on a running cluster " +
					"deletes the default NodePools, which drains their nodes. Has no effect in `Manual` mode. Defaults to `Auto`.",
				Validators: []validator.String{stringvalidator.OneOf(azure.DefaultNodePoolsAuto, azure.DefaultNodePoolsNone)},
			},
			"network_contributor_scopes": schema.SetAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "Resource IDs of the custom virtual networks or subnets NAP creates node NICs in. The cluster identity " +
					"is granted the Network Contributor role at exactly each of these scopes (give subnets for the narrowest grant). An " +
					"identical existing assignment is adopted instead of duplicated; only assignments this resource created are removed " +
					"when a scope is dropped or the resource is destroyed.",
				Validators: []validator.Set{networkScopesValidator{}},
			},
			"manage_crds": schema.BoolAttribute{
				Optional: true, Computed: true,
				Default: booldefault.StaticBool(false),
				MarkdownDescription: "Install or upgrade the Karpenter CRDs (NodePool, NodeClaim, NodeOverlay, AKSNodeClass, as pinned by " +
					"this provider) with server-side apply. For self-hosted Karpenter with `mode = \"Manual\"` only: with NAP, AKS " +
					"manages the CRDs. Needs the provider's `kubernetes` connection. Defaults to `false`.",
			},
			"wait_for_crds": schema.BoolAttribute{
				Optional: true, Computed: true,
				Default: booldefault.StaticBool(true),
				MarkdownDescription: "Wait until `nodepools.karpenter.sh` and `aksnodeclasses.karpenter.azure.com` are Established before " +
					"the apply of this resource finishes, and plan an update when they are missing later. Needs the provider's " +
					"`kubernetes` connection (e.g. `kubernetes = { aks_cluster_id = ... }`). Defaults to `true`.",
			},
			"switch_back_to_manual_on_destroy": schema.BoolAttribute{
				Optional: true, Computed: true,
				Default: booldefault.StaticBool(false),
				MarkdownDescription: "On destroy, set the cluster's node provisioning mode back to `Manual`. AKS allows that only when " +
					"no NAP-provisioned nodes are left; destroy fails and names the remaining nodes otherwise. With `false` (the " +
					"default), destroy leaves NAP enabled and says so.",
			},
			"effective_mode": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The node provisioning mode AKS reports for the cluster.",
			},
			"principal_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Object ID of the cluster's managed identity, the principal that received the Network Contributor grants.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"role_assignment_ids": schema.MapAttribute{
				Computed:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "The Network Contributor role assignment for each scope in `network_contributor_scopes`, by scope.",
			},
			"kubernetes_version": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The Kubernetes version the cluster's control plane runs.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"crds_established": schema.BoolAttribute{
				Computed: true,
				MarkdownDescription: "Whether the Karpenter CRDs were found Established; with `manage_crds`, also whether they are the " +
					"version this provider ships, so that after a provider upgrade the plan shows the change and the apply upgrades them. " +
					"Null when neither `wait_for_crds` nor `manage_crds` is set, since the cluster is then not asked.",
			},
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}),
		},
	}
}

func (r *Resource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	d, ok := req.ProviderData.(*providerdata.Data)
	if !ok {
		resp.Diagnostics.AddError("Unexpected provider data", fmt.Sprintf("expected *providerdata.Data, got %T", req.ProviderData))
		return
	}
	r.data = d
}

// ValidateConfig rejects combinations that cannot work, at plan time.
func (r *Resource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	mode := m.Mode.ValueString()
	if m.Mode.IsNull() {
		mode = azure.ModeAuto
	}
	if !m.Mode.IsUnknown() && mode == azure.ModeAuto && m.ManageCRDs.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root("manage_crds"), "manage_crds needs mode = \"Manual\"",
			"With mode = \"Auto\" AKS installs and upgrades the Karpenter CRDs itself, and a second writer would fight it. "+
				"Set manage_crds = false, or mode = \"Manual\" when you run Karpenter yourself.")
	}
	if mode == azure.ModeManual && m.DefaultNodePools.ValueString() == azure.DefaultNodePoolsNone {
		resp.Diagnostics.AddAttributeWarning(path.Root("default_node_pools"), "default_node_pools has no effect in Manual mode",
			"AKS creates default NodePools only when mode is \"Auto\"; with mode = \"Manual\" this setting is not sent.")
	}
}

// ModifyPlan fills in the computed attributes that are known before apply, so that an
// unchanged configuration plans empty, and plans an update for what drifted outside
// Terraform (missing CRDs, deleted grants). On destroy it says what destroy will leave.
func (r *Resource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		var st model
		resp.Diagnostics.Append(req.State.Get(ctx, &st)...)
		if !st.SwitchBackToManualOnDestroy.ValueBool() {
			resp.Diagnostics.AddWarning("Node auto provisioning stays enabled",
				fmt.Sprintf("Destroying this resource leaves node auto provisioning (mode %s) enabled on %s and only removes the role assignments it created. "+
					"Set switch_back_to_manual_on_destroy = true and apply before destroying to switch the cluster back to Manual.", st.EffectiveMode.ValueString(), st.ClusterID.ValueString()))
		}
		return
	}
	var plan model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.Mode.IsUnknown() {
		plan.EffectiveMode = plan.Mode
	}
	if r.data != nil && plan.Mode.ValueString() != azure.ModeManual {
		// Only node classes of this cluster are vouched for by its grants (providerdata.BoardsOfCluster).
		for _, b := range r.data.BoardsOfCluster(plan.ClusterID.ValueString()) {
			b.NAP().PlanGrants(plan.scopes(ctx), plan.scopesKnown() && !plan.Mode.IsUnknown())
		}
	}
	checksCRDs := plan.WaitForCRDs.ValueBool() || plan.ManageCRDs.ValueBool()
	switch {
	case plan.WaitForCRDs.IsUnknown() || plan.ManageCRDs.IsUnknown():
		plan.CRDsEstablished = types.BoolUnknown()
	case checksCRDs:
		plan.CRDsEstablished = types.BoolValue(true)
	default:
		plan.CRDsEstablished = types.BoolNull()
	}
	if !req.State.Raw.IsNull() {
		var st model
		resp.Diagnostics.Append(req.State.Get(ctx, &st)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if r.data == nil || !r.data.Checks.Disabled {
			var checks providerdata.Checks
			if r.data != nil {
				checks = r.data.Checks
			}
			warnDefaultPoolsRemoved(&plan, &st, checks, &resp.Diagnostics)
		}
		plan.RoleAssignmentIDs = types.MapUnknown(types.StringType)
		if !plan.NetworkContributorScopes.IsUnknown() && sameKeys(plan.scopes(ctx), st.RoleAssignmentIDs) {
			plan.RoleAssignmentIDs = st.RoleAssignmentIDs
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// sameKeys says whether the map's keys are exactly the scopes (Azure IDs compare without case).
func sameKeys(scopes []string, m types.Map) bool {
	if m.IsNull() || m.IsUnknown() {
		return len(scopes) == 0 && !m.IsUnknown()
	}
	elems := m.Elements()
	if len(elems) != len(scopes) {
		return false
	}
	have := map[string]bool{}
	for k := range elems {
		have[strings.ToLower(k)] = true
	}
	for _, s := range scopes {
		if !have[strings.ToLower(s)] {
			return false
		}
	}
	return true
}

// ImportState adopts a cluster by its resource ID. No role assignment is claimed: the next
// apply finds the grants for network_contributor_scopes and adopts them; only those carrying
// this provider's deterministic names count as its own and are removed on destroy.
func (r *Resource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if _, err := azure.ParseClusterID(req.ID); err != nil {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("Import karpenter_aks_node_auto_provisioning with the AKS cluster's resource ID: %v.", err))
		return
	}
	st := model{
		ID:                          types.StringValue(req.ID),
		ClusterID:                   types.StringValue(req.ID),
		Mode:                        types.StringNull(),
		DefaultNodePools:            types.StringValue(azure.DefaultNodePoolsAuto),
		NetworkContributorScopes:    types.SetNull(types.StringType),
		ManageCRDs:                  types.BoolValue(false),
		WaitForCRDs:                 types.BoolValue(true),
		SwitchBackToManualOnDestroy: types.BoolValue(false),
		EffectiveMode:               types.StringNull(),
		PrincipalID:                 types.StringNull(),
		RoleAssignmentIDs:           types.MapValueMust(types.StringType, map[string]attr.Value{}),
		KubernetesVersion:           types.StringNull(),
		CRDsEstablished:             types.BoolNull(),
		Timeouts:                    timeouts.Value{Object: types.ObjectNull(timeoutAttrTypes)},
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &st)...)
}

var timeoutAttrTypes = map[string]attr.Type{
	"create": types.StringType, "read": types.StringType, "update": types.StringType, "delete": types.StringType,
}
