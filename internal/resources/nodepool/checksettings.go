package nodepool

import (
	"context"
	"fmt"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
)

// checksModel is the pool's `checks` attribute, read through the framework rather than by
// hand from tftypes, so that a value of the wrong shape is a diagnostic, not a silent default.
type checksModel struct {
	Suppress   types.Set `tfsdk:"suppress"`
	LargestPod types.Map `tfsdk:"largest_pod"`
}

type checkSettings struct {
	suppress   []findings.Code
	largestPod corev1.ResourceList
	// unknown is set when a setting that shapes the analysis (largest_pod) is known only
	// after apply: the analysis computed without it would differ from the one of the apply walk.
	unknown bool
}

// readChecks reads the planned `checks` attribute. Invalid largest_pod requests are reported
// on their map key (ValidateConfig reports them first; this keeps the plan from checking a
// pod other than the one configured if it ever runs without).
func readChecks(ctx context.Context, v tftypes.Value, diags *diag.Diagnostics) checkSettings {
	out := checkSettings{}
	if v.IsNull() {
		return out
	}
	if !v.IsKnown() {
		out.unknown = true
		return out
	}
	obj, err := checksType.ValueFromTerraform(ctx, v)
	if err != nil {
		diags.AddAttributeError(rootPath("checks"), "Cannot read checks", err.Error())
		return out
	}
	var m checksModel
	if d := obj.(basetypes.ObjectValue).As(ctx, &m, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true}); d.HasError() {
		diags.Append(d...)
		return out
	}
	if !m.Suppress.IsUnknown() {
		for _, e := range m.Suppress.Elements() {
			if s, ok := e.(types.String); ok && !s.IsNull() && !s.IsUnknown() {
				out.suppress = append(out.suppress, findings.Code(strings.ToUpper(s.ValueString())))
			}
		}
	}
	pod, unknown, d := largestPod(m.LargestPod, rootPath("checks").AtName("largest_pod"))
	diags.Append(d...)
	out.largestPod, out.unknown = pod, unknown
	return out
}

// checksType is the attribute type of `checks`, from its schema.
var checksType = checksAttributes()["checks"].GetType()

// largestPod parses the requests of checks.largest_pod as the API server parses a
// container's resource requests: each a quantity, none negative. unknown says that the map or
// one of its values is known only after apply.
func largestPod(m types.Map, at path.Path) (corev1.ResourceList, bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	if m.IsNull() {
		return nil, false, nil
	}
	if m.IsUnknown() {
		return nil, true, nil
	}
	var out corev1.ResourceList
	unknown := false
	elems := m.Elements()
	for _, k := range slices.Sorted(maps.Keys(elems)) {
		s, ok := elems[k].(types.String)
		if !ok || s.IsNull() {
			continue // the map's element type is string; a null element is no request
		}
		if s.IsUnknown() {
			unknown = true
			continue
		}
		p := at.AtMapKey(k)
		q, err := resource.ParseQuantity(s.ValueString())
		switch {
		case err != nil:
			diags.AddAttributeError(crdresource.ShownPath(p), "Invalid checks.largest_pod request",
				fmt.Sprintf("Attribute %s: %q is not a Kubernetes quantity (%v). Valid: a number with an optional suffix, as in a container's resource requests, e.g. \"14\", \"500m\", \"60Gi\", \"1.5\".", p, s.ValueString(), err))
		case q.Sign() < 0:
			diags.AddAttributeError(crdresource.ShownPath(p), "Invalid checks.largest_pod request",
				fmt.Sprintf("Attribute %s: %q is negative; the API server rejects a negative request (it must be greater than or equal to 0).", p, s.ValueString()))
		default:
			if out == nil {
				out = corev1.ResourceList{}
			}
			out[corev1.ResourceName(k)] = q
		}
	}
	return out, unknown, diags
}

// quantities validates checks.largest_pod in ValidateConfig, so that a plan with an invalid
// request fails before anything is planned.
type quantities struct{}

func (quantities) Description(context.Context) string {
	return "each value must be a non-negative Kubernetes quantity such as 14, 500m or 60Gi"
}

func (v quantities) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (quantities) ValidateMap(_ context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	_, _, d := largestPod(req.ConfigValue, req.Path)
	resp.Diagnostics.Append(d...)
}
