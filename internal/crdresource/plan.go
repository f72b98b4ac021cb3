package crdresource

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// ValidateConfig runs the API server's own validation (OpenAPI schema and CEL rules of the
// CRD, after its defaults) on the configuration, offline, and reports each rejection on the
// attribute it concerns. Findings that depend on values unknown until apply are set aside.
func (r *Resource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	obj, err := r.toObject(req.Config.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read configuration", err.Error())
		return
	}
	for _, f := range r.Findings(ctx, obj) {
		summary := fmt.Sprintf("Invalid %s: %s", r.kind.GVK.Kind, f.Error.Type)
		detail := fmt.Sprintf("%s\n\nThe Kubernetes API server would reject this %s at %s.", f.Error.ErrorBody(), r.kind.GVK.Kind, f.Error.Field)
		if f.HasPath {
			// Terraform cannot always point into nested object expressions, so say it too.
			detail = fmt.Sprintf("Attribute %s: %s", f.Path, detail)
			resp.Diagnostics.AddAttributeError(f.Path, summary, detail)
		} else {
			resp.Diagnostics.AddError(summary, detail)
		}
	}
}

// Finding is one rejection by the API server's validation, with the attribute it concerns.
type Finding struct {
	Error   *field.Error
	Path    path.Path
	HasPath bool
}

// namedPath is the field path at the end of an OpenAPI validation error that the API server
// reports without one, e.g. "Checked value must be of type integer with format int32 in
// spec.kubelet.containerLogMaxFiles".
var namedPath = regexp.MustCompile(` in ((?:spec|metadata)(?:[.\[]\S*)?)$`)

// Findings validates obj (which may hold tfcrd.Unknown values) as the API server would.
func (r *Resource) Findings(ctx context.Context, obj map[string]any) []Finding {
	known, unknown := tfcrd.StripUnknown(obj)
	errs := r.validator.Validate(ctx, known)
	var out []Finding
	for _, e := range errs {
		segs := tfcrd.ParseFieldPath(e.Field)
		if e.Field == "<nil>" || e.Field == "" {
			if m := namedPath.FindStringSubmatch(e.Detail); m != nil {
				// Reported without a field path, but naming it (the int32 range check).
				segs = tfcrd.ParseFieldPath(m[1])
			} else if len(errs) > 1 || len(unknown) > 0 {
				// "some rules were not checked": only worth saying when nothing else was.
				continue
			}
		}
		if slices.ContainsFunc(unknown, func(u []string) bool { return tfcrd.Related(u, segs) }) {
			continue
		}
		p, ok := r.root.AttributePath(segs)
		out = append(out, Finding{Error: e, Path: p, HasPath: ok})
	}
	return out
}

// ModifyPlan shows in the plan the values the API server will default, so that the state
// after apply matches the plan and a second plan is empty. Read-only attributes keep their
// state value unless the object really changes.
func (r *Resource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	obj, err := r.toObject(req.Config.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read configuration", err.Error())
		return
	}
	r.validator.Default(obj)
	desired, err := r.root.FromObject(obj, tftypes.NewValue(req.Config.Raw.Type(), nil), true)
	if err != nil {
		resp.Diagnostics.AddError("Cannot plan defaults", err.Error())
		return
	}
	planned := attributes(req.Plan.Raw)
	for _, c := range r.root.Children {
		if !c.Computed {
			planned[c.Name] = desired[c.Name]
		}
	}
	changing := true
	if !req.State.Raw.IsNull() {
		state := attributes(req.State.Raw)
		if r.sameSpec(planned, state) {
			changing = false
			for _, c := range r.root.Children {
				if c.Computed {
					planned[c.Name] = state[c.Name]
				}
			}
		}
	}
	remembered, d := req.Private.GetKey(ctx, rememberedKey)
	resp.Diagnostics.Append(d...)
	var prior map[string]any
	if !req.State.Raw.IsNull() {
		prior, _ = r.toObject(req.State.Raw) // a state that does not convert only loses the change checks
	}
	r.planHook(ctx, obj, req.Plan.Raw.Type(), planned, &resp.Diagnostics, changing, remembered, prior)
	resp.Plan.Raw = tftypes.NewValue(req.Plan.Raw.Type(), planned)
}

func (r *Resource) runPlanHook(ctx context.Context, obj map[string]any, typ tftypes.Type, values map[string]tftypes.Value, diags *diag.Diagnostics, changing bool, remembered []byte) {
	r.planHook(ctx, obj, typ, values, diags, changing, remembered, nil)
}

// planHook runs the Kind's Plan hook; prior is the object in the state (nil when none).
func (r *Resource) planHook(ctx context.Context, obj map[string]any, typ tftypes.Type, values map[string]tftypes.Value, diags *diag.Diagnostics, changing bool, remembered []byte, prior map[string]any) {
	if r.kind.Plan == nil {
		return
	}
	obj["apiVersion"], obj["kind"] = r.kind.GVK.GroupVersion().String(), r.kind.GVK.Kind
	r.kind.Plan(ctx, &PlanContext{
		Data:       r.data,
		Object:     obj,
		Values:     values,
		Types:      typ.(tftypes.Object).AttributeTypes,
		Diags:      diags,
		Changing:   changing,
		Remembered: remembered,
		Prior:      prior,
		AttributePath: func(k8sPath string) (path.Path, bool) {
			return r.root.AttributePath(tfcrd.ParseFieldPath(k8sPath))
		},
	})
}

// sameSpec reports whether the writable attributes of two root values are equal.
func (r *Resource) sameSpec(a, b map[string]tftypes.Value) bool {
	for _, c := range r.root.Children {
		if !c.Computed && !a[c.Name].Equal(b[c.Name]) {
			return false
		}
	}
	return true
}

func attributes(v tftypes.Value) map[string]tftypes.Value {
	m := map[string]tftypes.Value{}
	_ = v.As(&m)
	return m
}
