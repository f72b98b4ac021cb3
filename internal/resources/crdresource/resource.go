package crdresource

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// Kind configures the resource for one custom resource kind: the Terraform parts (type name,
// documentation, extra attributes, plan and read hooks) of a kinds entry, whose GVK, resource,
// tree and layout it embeds.
type Kind struct {
	*kinds.Kind
	// TypeSuffix is appended to the provider type name: "nodepool" → karpenter_nodepool.
	TypeSuffix string
	// Description is the resource's documentation (Markdown).
	Description string
	// DeletionBlockers describes what keeps an object from being deleted, for the timeout
	// error and progress logs (e.g. the NodeClaims a NodePool still owns).
	DeletionBlockers func(ctx context.Context, c *kube.Client, obj *unstructured.Unstructured) string
	// DefaultTimeouts for create/update and delete.
	CreateTimeout, DeleteTimeout time.Duration

	// ExtraAttributes are attributes that are not part of the Kubernetes object (settings
	// and results of plan-time checks).
	ExtraAttributes map[string]schema.Attribute
	// Plan runs at the end of ModifyPlan, offline, and may add diagnostics and set extra
	// attributes. It also runs on the first read after an import, with no configuration.
	Plan func(ctx context.Context, pc *PlanContext)
	// Hint, when set, adds advice to a rejection by the CRD's validation (e.g. the label key
	// a typo in a restricted domain probably meant); "" adds none.
	Hint func(obj map[string]any, e *field.Error) string
	// ValidatorFor, when set, picks the validator of an object whose CRD depends on the cloud
	// it is for (a NodePool for EKS is judged by EKS's NodePool CRD); nil: the kind's own.
	// Defaults are the kind's in any case (the clouds' CRDs differ only in CEL rules).
	ValidatorFor func(obj map[string]any) *crdvalidate.Validator
	// Locate, when set, names the Kubernetes field a rejection of the CRD's validation that
	// the API server reports on the whole spec is about (e.g. instanceProfile, for a rule that
	// one of role and instanceProfile be set), so that the plan shows it on that attribute;
	// "" leaves it on the resource.
	Locate func(obj map[string]any, e *field.Error) string
	// PlanDelete runs when a plan deletes the object (it is no longer configured), offline.
	PlanDelete func(data *providerdata.Data, name string)
	// Observe runs after every read and successful write of the object, online, and returns
	// what to keep in the resource's private state for later Plan calls (PlanContext.Remembered);
	// nil keeps what was there. Terraform's plan during apply gets the private state of the
	// refresh, so whatever Plan derives from it is the same in both of Terraform's walks, unlike
	// what other resources record in providerdata.Data during a walk. After a write, Plan runs
	// again with the new value to fill the extra attributes that were unknown in the plan.
	Observe func(ctx context.Context, oc *ObserveContext) []byte
}

// TakeOwnershipFrom is the attribute naming the field managers whose fields the provider takes
// over on its first apply after an import. Like id and timeouts, it is not part of the object.
const TakeOwnershipFrom = "take_ownership_from"

// DefaultTakeOwnershipFrom are the field managers of the tools people migrate from: the
// hashicorp/kubernetes provider's kubernetes_manifest ("Terraform"), kubectl's server-side and
// client-side apply, edit, patch, replace and create, and Helm.
var DefaultTakeOwnershipFrom = []string{
	"Terraform", "kubectl", "kubectl-client-side-apply", "kubectl-edit", "kubectl-patch", "kubectl-replace", "kubectl-create", "helm",
}

func takeOwnershipAttribute() schema.ListAttribute {
	quoted := make([]string, len(DefaultTakeOwnershipFrom))
	for i, m := range DefaultTakeOwnershipFrom {
		quoted[i] = strconv.Quote(m)
	}
	return schema.ListAttribute{
		ElementType: types.StringType,
		Optional:    true,
		// Computed only so that a state written by an earlier version, which stored the default
		// list, plans as it is rather than as a change to null (see nullMeansDefault).
		Computed:      true,
		PlanModifiers: []planmodifier.List{nullMeansDefault{}},
		Validators:    []validator.List{listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
		MarkdownDescription: "Field managers whose fields the provider takes over on its first apply after an import, so that a " +
			"field later removed from the configuration is removed from the object. Other managers (controllers, AKS) keep " +
			"their fields. `[]` takes nothing over. Only fields of the spec move; labels and annotations stay with their " +
			"manager. Not part of the Kubernetes object. Unset (null, and not shown in plans) means the default list: `[" + strings.Join(quoted, ", ") + "]`.",
	}
}

// nullMeansDefault plans an unset take_ownership_from as null, so that plans do not list the
// default managers of every resource, except where the state holds the default list itself
// (written so by an earlier provider version): that means the same and is kept, not shown as
// a change.
type nullMeansDefault struct{}

func (nullMeansDefault) Description(context.Context) string {
	return "unset means the default field managers"
}

func (m nullMeansDefault) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (nullMeansDefault) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if !req.ConfigValue.IsNull() {
		return
	}
	resp.PlanValue = types.ListNull(types.StringType)
	var state []string
	if !req.StateValue.IsNull() && !req.StateValue.IsUnknown() && req.StateValue.ElementsAs(ctx, &state, false) == nil && slices.Equal(state, DefaultTakeOwnershipFrom) {
		resp.PlanValue = req.StateValue
	}
}

// takeOwnershipFrom is the plan's take_ownership_from, with null meaning the default list.
func takeOwnershipFrom(ctx context.Context, plan tfsdk.Plan, diags *diag.Diagnostics) []string {
	var v types.List
	diags.Append(plan.GetAttribute(ctx, path.Root(TakeOwnershipFrom), &v)...)
	if v.IsNull() || v.IsUnknown() {
		return DefaultTakeOwnershipFrom
	}
	out := []string{}
	diags.Append(v.ElementsAs(ctx, &out, false)...)
	return out
}

// rememberedKey is the private state key of Kind.Observe's value.
const rememberedKey = "remembered"

// PlanContext is what a Kind's Plan hook sees.
type PlanContext struct {
	// Data is the provider's data; nil when the provider is not configured.
	Data *providerdata.Data
	// Object is the desired Kubernetes object with CRD defaults applied; values unknown until
	// apply are crdtree.Unknown.
	Object map[string]any
	// Values are the planned attributes; the hook sets its extra attributes here.
	Values map[string]tftypes.Value
	// Types are the attribute types of the resource.
	Types map[string]tftypes.Type
	Diags *diag.Diagnostics
	// AttributePath maps a Kubernetes field path to the attribute it is written in.
	AttributePath func(k8sPath string) (path.Path, bool)
	// Changing says that the object is created or updated by this plan.
	Changing bool
	// Creating says that the plan creates the object (also the create half of a replace, and a
	// re-creation after a delete outside Terraform): Remembered is then nil, as it is in the plan
	// Terraform makes during apply, even where the plan walk still had the old object's.
	Creating bool
	// Remembered is what Kind.Observe kept at the last read or write (nil if nothing).
	Remembered []byte
	// Prior is the object as the state holds it before this plan (nil on create), for checks
	// of what a change does.
	Prior map[string]any
}

// ObserveContext is what a Kind's Observe hook sees.
type ObserveContext struct {
	// Data is the provider's data; nil when the provider is not configured.
	Data   *providerdata.Data
	Client *kube.Client
	// Object is the object as the API server returned it.
	Object map[string]any
	// Remembered is what Observe kept before (nil if nothing).
	Remembered []byte
	// Prior is the object as the state holds it before this plan (nil on create), for checks
	// of what a change does.
	Prior map[string]any
}

// Report adds a plan-time finding about the Kubernetes field k8sPath: on the attribute it is
// written in (named in the detail too, since Terraform shows the configuration line only),
// or on the resource when no attribute holds it; as an error or a warning.
func (pc *PlanContext) Report(k8sPath string, isError bool, summary, detail string) {
	p, ok := pc.AttributePath(k8sPath)
	if ok {
		detail = fmt.Sprintf("Attribute %s: %s", p, detail)
		p = ShownPath(p)
	}
	switch {
	case isError && ok:
		pc.Diags.AddAttributeError(p, summary, detail)
	case isError:
		pc.Diags.AddError(summary, detail)
	case ok:
		pc.Diags.AddAttributeWarning(p, summary, detail)
	default:
		pc.Diags.AddWarning(summary, detail)
	}
}

// validatorFor is the validator that judges obj (see Kind.ValidatorFor).
func (r *Resource) validatorFor(obj map[string]any) *crdvalidate.Validator {
	if r.kind.ValidatorFor != nil {
		if v := r.kind.ValidatorFor(obj); v != nil {
			return v
		}
	}
	return r.validator
}

// Resource is the Terraform resource for a Kind.
type Resource struct {
	kind      *Kind
	data      *providerdata.Data
	validator *crdvalidate.Validator
	root      *crdtree.Node
}

var (
	_ resource.ResourceWithConfigure      = (*Resource)(nil)
	_ resource.ResourceWithValidateConfig = (*Resource)(nil)
	_ resource.ResourceWithModifyPlan     = (*Resource)(nil)
	_ resource.ResourceWithImportState    = (*Resource)(nil)
)

// New returns a constructor for the provider's Resources list.
func New(k *Kind) func() resource.Resource {
	return func() resource.Resource {
		return &Resource{kind: k, validator: crdvalidate.MustFor(k.GVK), root: k.Tree()}
	}
}

func (r *Resource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.kind.TypeSuffix
}

func (r *Resource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := tfcrd.Attributes(r.root, "")
	attrs["id"] = schema.StringAttribute{
		Computed:            true,
		MarkdownDescription: fmt.Sprintf("The %s's name, which identifies it in the cluster (and for `terraform import`).", r.kind.GVK.Kind),
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
	attrs["name"] = schema.StringAttribute{
		Required:            true,
		MarkdownDescription: attrs["name"].GetMarkdownDescription(),
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		Validators:          []validator.String{stringvalidator.LengthBetween(1, 253)},
	}
	if st, ok := attrs["status"].(schema.SingleNestedAttribute); ok {
		st.MarkdownDescription += " As last read from the cluster: the provider's writes never change it (the " +
			"status subresource is the controllers'), so an update plans it unchanged, and a refresh reads what the controller reports since."
		attrs["status"] = st
	}
	attrs["timeouts"] = timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true})
	attrs[TakeOwnershipFrom] = takeOwnershipAttribute()
	attrs[ClusterAttribute] = r.clusterAttribute()
	for k, v := range r.kind.ExtraAttributes {
		attrs[k] = v
	}
	resp.Schema = schema.Schema{MarkdownDescription: r.kind.Description, Attributes: attrs}
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
