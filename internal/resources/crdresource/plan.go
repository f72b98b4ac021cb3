package crdresource

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// ValidateConfig runs the API server's own validation (OpenAPI schema and CEL rules of the
// CRD, after its defaults) on the configuration, offline, and reports each rejection on the
// attribute it concerns. Rejections that depend on values unknown until apply are set aside.
func (r *Resource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	obj, err := r.toObject(req.Config.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read configuration", err.Error())
		return
	}
	for _, f := range r.Rejections(ctx, obj) {
		summary := fmt.Sprintf("Invalid %s: %s", r.kind.GVK.Kind, f.Error.Type)
		detail := fmt.Sprintf("%s\n\nThe Kubernetes API server would reject this %s at %s.", crdvalidate.Explain(f.Error), r.kind.GVK.Kind, f.Error.Field)
		if r.kind.Hint != nil {
			if h := r.kind.Hint(obj, f.Error); h != "" {
				detail += "\n\n" + h
			}
		}
		if f.Deferred {
			detail += " It reports this once the other errors of the object are fixed: it checks the CEL rules only of an object that passes its OpenAPI schema."
		}
		if r.kind.Locate != nil && !f.HasPath {
			if at := r.kind.Locate(obj, f.Error); at != "" {
				f.Path, f.HasPath = tfcrd.AttributePath(r.root, crdtree.ParseFieldPath(at))
			}
		}
		if f.HasPath {
			// Terraform cannot always point into nested object expressions, so say it too.
			detail = fmt.Sprintf("Attribute %s: %s", f.Path, detail)
			resp.Diagnostics.AddAttributeError(ShownPath(f.Path), summary, detail)
		} else {
			resp.Diagnostics.AddError(summary, detail)
		}
	}
}

// Rejection is one rejection by the API server's validation, with the attribute it concerns.
// It is not a finding of the registry: the review reports it as KRP001, while in Terraform it
// is a configuration error without a code, which no checks setting suppresses (the apply would
// fail with it).
type Rejection struct {
	Error   *field.Error
	Path    path.Path
	HasPath bool
	// Deferred is set for a rejection the API server reports only once the object's blocking
	// errors are fixed (see deferredErrors).
	Deferred bool
}

// namedPath is the field path at the end of an OpenAPI validation error that the API server
// reports without one, e.g. "Checked value must be of type integer with format int32 in
// spec.kubelet.containerLogMaxFiles".
var namedPath = regexp.MustCompile(` in ((?:spec|metadata)(?:[.\[]\S*)?)$`)

// Rejections validates obj (which may hold crdtree.Unknown values) as the API server would.
func (r *Resource) Rejections(ctx context.Context, obj map[string]any) []Rejection {
	known, unknown := crdtree.StripUnknown(obj)
	errs := r.validatorFor(known).Validate(ctx, known)
	deferred := r.deferredErrors(ctx, known, errs)
	// The note on deferred findings is owed only when the configuration itself holds what
	// blocks them, not merely a value known after apply (stripped, so missing).
	blockedByConfig := false
	if len(deferred) > 0 {
		// "some rules were not checked": deferred says which.
		errs = slices.DeleteFunc(slices.Clone(errs), func(e *field.Error) bool {
			return strings.HasPrefix(e.Detail, "some validation rules were not checked")
		})
		for _, e := range errs {
			segs := crdtree.ParseFieldPath(e.Field)
			if blocksCEL(e) && !slices.ContainsFunc(unknown, func(u []string) bool { return crdtree.Related(u, segs) }) {
				blockedByConfig = true
			}
		}
	}
	var out []Rejection
	for i, e := range append(errs, deferred...) {
		segs := crdtree.ParseFieldPath(e.Field)
		if e.Field == "<nil>" || e.Field == "" {
			if m := namedPath.FindStringSubmatch(e.Detail); m != nil {
				// Reported without a field path, but naming it (the int32 range check).
				segs = crdtree.ParseFieldPath(m[1])
			} else if len(errs) > 1 || len(unknown) > 0 {
				// "some rules were not checked": only worth saying when nothing else was.
				continue
			}
		}
		if slices.ContainsFunc(unknown, func(u []string) bool { return crdtree.Related(u, segs) }) {
			continue
		}
		p, ok := tfcrd.AttributePath(r.root, segs)
		out = append(out, Rejection{Error: e, Path: p, HasPath: ok, Deferred: i >= len(errs) && blockedByConfig})
	}
	return out
}

// ModifyPlan shows in the plan the values the API server will default, so that the state
// after apply matches the plan and a second plan is empty. Read-only attributes keep their
// state value unless the object really changes.
func (r *Resource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		var name string
		if !req.State.Raw.IsNull() && r.kind.PlanDelete != nil && r.data != nil {
			if v, ok := attributes(req.State.Raw)["name"]; ok && v.As(&name) == nil {
				r.kind.PlanDelete(r.dataFor(req.State.Raw), name)
			}
		}
		return
	}
	obj, err := r.toObject(req.Config.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Cannot read configuration", err.Error())
		return
	}
	r.validator.Default(obj)
	desired, err := tfcrd.FromObject(r.root, obj, tftypes.NewValue(req.Config.Raw.Type(), nil), true)
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
	if name := planned["name"]; req.State.Raw.IsNull() && name.IsKnown() && !name.IsNull() {
		// The id is the name: known at plan, not "known after apply".
		planned["id"] = name
	}
	if req.State.Raw.IsNull() && r.validator.StatusSubresource() {
		// The API server drops the status of an object created through the main resource, so
		// the object a create returns has none.
		for _, c := range r.root.Children {
			if c.Computed {
				planned[c.Name] = tftypes.NewValue(tfcrd.Type(c), nil)
			}
		}
	}
	if !req.State.Raw.IsNull() {
		state := attributes(req.State.Raw)
		changing = !r.sameSpec(planned, state)
		// The status as last read, also when the spec changes: writes go to the main resource
		// and never change the status subresource, so "known after apply" would only be noise.
		for _, c := range r.root.Children {
			if c.Computed {
				planned[c.Name] = state[c.Name]
			}
		}
	}
	creating := req.State.Raw.IsNull()
	var prior map[string]any
	if !creating {
		prior, _ = r.toObject(req.State.Raw) // a state that does not convert only loses the change checks
	}
	var remembered []byte
	if !creating {
		// A create gets no private state in Terraform's plan during apply, but its plan walk may
		// get the private state of an object deleted outside Terraform (or, for the create half
		// of a replace, the one just planned): neither describes the object to create.
		var d diag.Diagnostics
		remembered, d = req.Private.GetKey(ctx, rememberedKey)
		resp.Diagnostics.Append(d...)
	}
	r.runPlanHook(ctx, obj, req.Plan.Raw.Type(), planned, &resp.Diagnostics, planFlags{changing: changing, creating: creating, prior: prior}, remembered)
	resp.Plan.Raw = tftypes.NewValue(req.Plan.Raw.Type(), planned)
}

// planFlags say what the plan does; prior is the object in the state (nil when none).
type planFlags struct {
	changing, creating bool
	prior              map[string]any
}

func (r *Resource) runPlanHook(ctx context.Context, obj map[string]any, typ tftypes.Type, values map[string]tftypes.Value, diags *diag.Diagnostics, flags planFlags, remembered []byte) {
	if r.kind.Plan == nil {
		return
	}
	obj["apiVersion"], obj["kind"] = r.kind.GVK.GroupVersion().String(), r.kind.GVK.Kind
	var data *providerdata.Data
	if r.data != nil {
		// The resource's cluster: its clients, region and plan-time board.
		data = r.data.ForCluster(targetOf(values))
	}
	r.kind.Plan(ctx, &PlanContext{
		Data:       data,
		Object:     obj,
		Values:     values,
		Types:      typ.(tftypes.Object).AttributeTypes,
		Diags:      diags,
		Changing:   flags.changing,
		Creating:   flags.creating,
		Remembered: remembered,
		Prior:      flags.prior,
		AttributePath: func(k8sPath string) (path.Path, bool) {
			return tfcrd.AttributePath(r.root, crdtree.ParseFieldPath(k8sPath))
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
