package crdresource

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// importedKey marks in private state that the next Read follows an import and must read the
// whole object rather than project it onto a prior state.
const importedKey = "imported"

// adoptKey marks in private state that the object was imported and that the provider has not
// written it yet: the first update takes over the fields of the managers in take_ownership_from
// before it applies. It is cleared only once that write succeeds.
const adoptKey = "adopt"

// client is the Kubernetes client of the cluster of d (dataFor: the resource's cluster).
func (r *Resource) client(ctx context.Context, d *providerdata.Data, diags *diag.Diagnostics) *kube.Client {
	if d == nil {
		diags.AddError("Provider not configured", "The karpenter provider was not configured before use.")
		return nil
	}
	c, err := d.Clients.Kube(ctx)
	if err != nil {
		if d.Cluster.ID() != "" {
			// Only this cluster's resources fail; the error names it.
			diags.AddAttributeError(clusterPath(d.Cluster), "Cannot connect to the Kubernetes cluster", err.Error())
			return nil
		}
		diags.AddError("Cannot connect to the Kubernetes cluster", err.Error())
		return nil
	}
	return c
}

// toObject renders a configuration or plan as the Kubernetes object. The resource's
// attributes are the flattened spec, so the object always has a spec, even when no attribute
// of it is set: an AKSNodeClass configured by its name alone is `spec: {}`, which the API
// server defaults (imageFamily, osDiskSizeGB) as the plan shows, not an object without spec.
func (r *Resource) toObject(v tftypes.Value) (map[string]any, error) {
	obj, err := tfcrd.ToObject(r.root, v)
	if err != nil {
		return nil, err
	}
	if _, ok := obj["spec"]; !ok {
		obj["spec"] = map[string]any{}
	}
	return obj, nil
}

// object renders a plan as the Kubernetes object to apply.
func (r *Resource) object(plan tftypes.Value) (*unstructured.Unstructured, error) {
	obj, err := r.toObject(plan)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: obj}
	u.SetAPIVersion(r.kind.GVK.GroupVersion().String())
	u.SetKind(r.kind.GVK.Kind)
	return u, nil
}

// setState stores live projected onto prior (or read in full) together with the attributes
// that are not part of the object (id, timeouts).
func (r *Resource) setState(ctx context.Context, state *tfsdk.State, live *unstructured.Unstructured, prior tftypes.Value, full bool, diags *diag.Diagnostics) {
	attrs, err := tfcrd.FromObject(r.root, live.Object, prior, full)
	if err != nil {
		diags.AddError("Cannot read "+r.kind.GVK.Kind, err.Error())
		return
	}
	base := attributes(prior)
	for k, v := range attrs {
		base[k] = v
	}
	base["id"] = tftypes.NewValue(tftypes.String, live.GetName())
	if v, ok := base[TakeOwnershipFrom]; !ok || !v.IsKnown() {
		// Not in the state after an import: null, as the plan of a configuration that does not
		// set it has, so that the plan after an import is empty.
		base[TakeOwnershipFrom] = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nil)
	}
	state.Raw = tftypes.NewValue(state.Schema.Type().TerraformType(ctx), base)
}

func (r *Resource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if live := r.write(ctx, req.Plan, &resp.State, &resp.Diagnostics, true, false, resp.Private, nil); live != nil {
		r.observeWrite(ctx, r.dataFor(req.Plan.Raw), live, nil, &resp.State, resp.Private, &resp.Diagnostics)
	}
}

func (r *Resource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	adopt, d := req.Private.GetKey(ctx, adoptKey)
	resp.Diagnostics.Append(d...)
	remembered, d := req.Private.GetKey(ctx, rememberedKey)
	resp.Diagnostics.Append(d...)
	observed, d := req.Private.GetKey(ctx, observedKey)
	resp.Diagnostics.Append(d...)
	// After an import the hand-over decides what the apply changes; it fails on its own when
	// the object changes meanwhile.
	var check func(context.Context, *kube.Client, string)
	if adopt == nil {
		check = func(ctx context.Context, c *kube.Client, name string) {
			r.warnChangedSincePlan(ctx, c, req.State, observed, name, &resp.Diagnostics)
		}
	}
	if live := r.write(ctx, req.Plan, &resp.State, &resp.Diagnostics, false, adopt != nil, resp.Private, check); live != nil {
		r.observeWrite(ctx, r.dataFor(req.Plan.Raw), live, remembered, &resp.State, resp.Private, &resp.Diagnostics)
		if adopt != nil && resp.Private != nil {
			// Handed over and applied: later updates leave the managed fields alone.
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, adoptKey, nil)...)
		}
	}
}

// observe runs Kind.Observe on the object read or written and keeps its value in private
// state; it returns what is remembered now.
func (r *Resource) observe(ctx context.Context, d *providerdata.Data, live *unstructured.Unstructured, remembered []byte, private privateSetter, diags *diag.Diagnostics) []byte {
	if r.kind.Observe == nil || private == nil {
		return remembered
	}
	c := r.client(ctx, d, diags)
	if c == nil {
		return remembered
	}
	v := r.kind.Observe(ctx, &ObserveContext{Data: d, Client: c, Object: live.UnstructuredContent(), Remembered: remembered})
	if v == nil {
		return remembered
	}
	diags.Append(private.SetKey(ctx, rememberedKey, v)...)
	return v
}

// observeWrite observes the object just written and fills the extra attributes the final plan
// left unknown (a pool's analysis, when its node class could not be seen the same way in both
// of Terraform's walks) with what the plan hook computes from it. Known values stay as planned:
// the state must equal them.
func (r *Resource) observeWrite(ctx context.Context, d *providerdata.Data, live *unstructured.Unstructured, remembered []byte, state *tfsdk.State, private privateSetter, diags *diag.Diagnostics) {
	remembered = r.observe(ctx, d, live, remembered, private, diags)
	values := attributes(state.Raw)
	var open []string
	for k := range r.kind.ExtraAttributes {
		if v, ok := values[k]; ok && !v.IsFullyKnown() {
			open = append(open, k)
		}
	}
	if len(open) == 0 {
		return
	}
	computed := attributes(state.Raw)
	var ignored diag.Diagnostics // reported by the plan already
	r.runPlanHook(ctx, live.DeepCopy().UnstructuredContent(), state.Raw.Type(), computed, &ignored, planFlags{changing: true}, remembered)
	for _, k := range open {
		v := computed[k]
		if !v.IsFullyKnown() {
			// Nothing better is known now; a value after apply must be known.
			v = tftypes.NewValue(v.Type(), nil)
		}
		values[k] = v
	}
	state.Raw = tftypes.NewValue(state.Raw.Type(), values)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// write applies the plan and stores the state; it returns the object as the API server
// returned it, or nil on error.
// adopt takes over the fields of the managers in take_ownership_from first (the first update
// after an import). check, when set, runs before the write. The resourceVersion written is
// kept in private, where the next update finds what its plan was computed against.
func (r *Resource) write(ctx context.Context, plan tfsdk.Plan, state *tfsdk.State, diags *diag.Diagnostics, create, adopt bool,
	private privateSetter, check func(context.Context, *kube.Client, string)) *unstructured.Unstructured {
	var t timeouts.Value
	diags.Append(plan.GetAttribute(ctx, path.Root("timeouts"), &t)...)
	timeout, d := t.Create(ctx, r.kind.CreateTimeout)
	if !create {
		timeout, d = t.Update(ctx, r.kind.CreateTimeout)
	}
	diags.Append(d...)
	data := r.dataFor(plan.Raw)
	c := r.client(ctx, data, diags)
	if diags.HasError() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	obj, err := r.object(plan.Raw)
	if err != nil {
		diags.AddError("Cannot build "+r.kind.GVK.Kind, err.Error())
		return nil
	}
	if adopt && !r.takeOwnership(ctx, c, plan, obj.GetName(), diags) {
		return nil
	}
	if check != nil {
		check(ctx, c, obj.GetName())
	}
	var live *unstructured.Unstructured
	if create {
		live, err = c.Create(ctx, r.kind.GVR(), obj)
	} else {
		live, err = c.Apply(ctx, r.kind.GVR(), obj)
	}
	var exists *kube.AlreadyExistsError
	switch {
	case errors.As(err, &exists):
		id := exists.Name
		if data.Cluster.ID() != "" {
			id = data.Cluster.ID() + ImportClusterSeparator + exists.Name // the object of that cluster
		}
		diags.AddAttributeError(path.Root("name"), r.kind.GVK.Kind+" already exists",
			fmt.Sprintf("%s. To manage it with Terraform, import it instead of creating it:\n\n  terraform import %s_%s.<name> %s\n\nor add an `import` block with id = %q.",
				exists.Error(), "karpenter", r.kind.TypeSuffix, id, id))
		return nil
	case err != nil:
		op := operation{verb: "create", timeout: timeout}
		if !create {
			op.verb = "update"
		}
		if create && live != nil {
			// Created, but its fields are not recorded as applied: in state, Terraform marks
			// it tainted and replaces it on the next apply, rather than losing track of it.
			r.setState(ctx, state, live, plan.Raw, false, diags)
			err = fmt.Errorf("%w\n\nThe %s was created; Terraform records it as tainted and replaces it on the next apply", err, r.kind.GVK.Kind)
		}
		r.reportFailure(diags, op, obj.GetName(), err)
		return nil
	}
	r.setState(ctx, state, live, plan.Raw, false, diags)
	if diags.HasError() {
		return nil
	}
	recordResourceVersion(ctx, private, live, diags)
	keepPlannedStatus(state, plan.Raw, r.root)
	return live
}

// keepPlannedStatus stores the read-only attributes as the plan has them when it knows them
// (an update plans the status last read: the write does not touch the status subresource), so
// that a controller reporting in the meantime does not make the state differ from the plan.
func keepPlannedStatus(state *tfsdk.State, plan tftypes.Value, root *crdtree.Node) {
	values, planned := attributes(state.Raw), attributes(plan)
	for _, c := range root.Children {
		if v, ok := planned[c.Name]; c.Computed && ok && v.IsFullyKnown() {
			values[c.Name] = v
		}
	}
	state.Raw = tftypes.NewValue(state.Raw.Type(), values)
}

// takeOwnership hands the fields of the managers in take_ownership_from over to the provider's
// field manager, so that the forced apply that follows removes those the configuration does
// not set. It reports whether the apply may go ahead.
func (r *Resource) takeOwnership(ctx context.Context, c *kube.Client, plan tfsdk.Plan, name string, diags *diag.Diagnostics) bool {
	from := takeOwnershipFrom(ctx, plan, diags)
	if diags.HasError() {
		return false
	}
	if len(from) == 0 {
		tflog.Info(ctx, "first apply after import: take_ownership_from is empty, taking no fields over", map[string]any{"kind": r.kind.GVK.Kind, "name": name})
		return true
	}
	taken, err := c.TakeOwnership(ctx, r.kind.GVR(), name, from)
	if err != nil {
		why := err.Error()
		var conflict *kube.ConflictError
		if errors.As(err, &conflict) {
			why += "\n\nAnother client (a controller, kubectl, a GitOps tool) wrote the object at the same time."
		}
		diags.AddAttributeError(path.Root(TakeOwnershipFrom), "Cannot take over the fields of the previous field managers",
			fmt.Sprintf("This is the first apply to %s %q since it was imported. Before applying, the provider hands the spec fields "+
				"that the field managers in take_ownership_from (%s) own over to its own field manager %q, so that a field later removed from the "+
				"configuration is removed from the object. That failed:\n\n%s\n\nNothing was changed: neither the object nor its "+
				"managed fields. The hand-over is still pending; run terraform apply again to retry it. To apply without taking "+
				"any fields over, set take_ownership_from = [].",
				r.kind.GVK.Kind, name, strings.Join(quoteAll(from), ", "), kube.FieldManager, why))
		return false
	}
	if len(taken) == 0 {
		tflog.Info(ctx, "first apply after import: none of the field managers in take_ownership_from owns a spec field, nothing to take over",
			map[string]any{"kind": r.kind.GVK.Kind, "name": name, "take_ownership_from": from})
		return true
	}
	tflog.Info(ctx, "first apply after import: took over the fields of field managers", map[string]any{
		"kind": r.kind.GVK.Kind, "name": name, "managers": taken, "field_manager": kube.FieldManager,
	})
	return true
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

func (r *Resource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	data := r.dataFor(req.State.Raw)
	c := r.client(ctx, data, &resp.Diagnostics)
	if c == nil {
		return
	}
	var name string
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	if resp.Diagnostics.HasError() {
		return
	}
	live, err := c.Get(ctx, r.kind.GVR(), name)
	if err != nil {
		r.reportFailure(&resp.Diagnostics, operation{verb: "read"}, name, err)
		return
	}
	if live == nil {
		tflog.Info(ctx, r.kind.GVK.Kind+" was deleted outside Terraform; it will be created again", map[string]any{"name": name})
		resp.State.RemoveResource(ctx)
		// What was remembered of the deleted object is no input to the plan that creates it.
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, rememberedKey, nil)...)
		return
	}
	imported, d := req.Private.GetKey(ctx, importedKey)
	resp.Diagnostics.Append(d...)
	remembered, d := req.Private.GetKey(ctx, rememberedKey)
	resp.Diagnostics.Append(d...)
	r.setState(ctx, &resp.State, live, req.State.Raw, imported != nil, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	recordResourceVersion(ctx, resp.Private, live, &resp.Diagnostics)
	remembered = r.observe(ctx, data, live, remembered, resp.Private, &resp.Diagnostics)
	if imported != nil {
		// Fill the plan-time results too, from what the plan that follows will see, so that it
		// is empty. Findings are reported by that plan, not here.
		values := attributes(resp.State.Raw)
		var ignored diag.Diagnostics
		r.runPlanHook(ctx, live.DeepCopy().UnstructuredContent(), resp.State.Raw.Type(), values, &ignored, planFlags{}, remembered)
		resp.State.Raw = tftypes.NewValue(resp.State.Raw.Type(), values)
	}
	if imported != nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, importedKey, nil)...)
	}
}

func (r *Resource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var t timeouts.Value
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("timeouts"), &t)...)
	timeout, d := t.Delete(ctx, r.kind.DeleteTimeout)
	resp.Diagnostics.Append(d...)
	var name string
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	c := r.client(ctx, r.dataFor(req.State.Raw), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	err := c.Delete(waitCtx, r.kind.GVR(), name, func(obj *unstructured.Unstructured) {
		tflog.Info(ctx, "waiting for "+r.kind.GVK.Kind+" to be deleted", map[string]any{
			"name": name, "elapsed": time.Since(start).Round(time.Second).String(),
			"finalizers": obj.GetFinalizers(), "holding": r.blockers(ctx, c, obj),
		})
	})
	var still *kube.StillPresentError
	if err != nil && !errors.As(err, &still) && deadlineHit(waitCtx, err) {
		// The deadline ended one of the wait's own requests: that is the same timeout, so
		// look at the object once more, outside the expired deadline, and say so.
		if obj, gerr := c.Get(ctx, r.kind.GVR(), name); gerr == nil {
			if obj == nil {
				return // gone after all
			}
			still = &kube.StillPresentError{Object: obj, Err: waitCtx.Err()}
		}
	}
	switch {
	case still != nil:
		resp.Diagnostics.AddError(fmt.Sprintf("Timed out after %s waiting for %s %q to be deleted", timeout, r.kind.GVK.Kind, name),
			fmt.Sprintf("Deletion was requested and is still in progress. Finalizers: %v. %s\n\nRaise timeouts.delete, or find out why the finalizer is not released, then run terraform destroy again.",
				still.Object.GetFinalizers(), r.blockers(ctx, c, still.Object)))
	case err != nil:
		r.reportFailure(&resp.Diagnostics, operation{verb: "delete", timeout: timeout}, name, err)
	}
}

// deadlineHit reports whether err ended the deletion wait because of its deadline: the
// context is done, or client-go's rate limiter refused to wait past the deadline, which it
// reports before the deadline passes and without a typed error ("client rate limiter Wait
// returned an error: rate: Wait(n=1) would exceed context deadline").
func deadlineHit(waitCtx context.Context, err error) bool {
	return waitCtx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "would exceed context deadline")
}

func (r *Resource) blockers(ctx context.Context, c *kube.Client, obj *unstructured.Unstructured) string {
	if r.kind.DeletionBlockers == nil {
		return ""
	}
	return r.kind.DeletionBlockers(ctx, c, obj)
}

// ImportState takes "<name>" (an object of the provider's cluster), "<aks_cluster_id>//<name>"
// or "<eks_cluster_arn>//<name>" (of that cluster, as the cluster attribute names it).
func (r *Resource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	cluster, name, err := parseImportID(req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID", err.Error())
		return
	}
	if cluster.ID() != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, clusterPath(cluster), cluster.ID())...)
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, importedKey, []byte(`true`))...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, adoptKey, []byte(`true`))...)
}
