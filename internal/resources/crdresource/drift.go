package crdresource

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

// observedKey is the private state key of the object's resourceVersion as last read or
// written: what the state, and so the next plan, was computed against.
const observedKey = "observed_resource_version"

// recordResourceVersion keeps the live object's resourceVersion in private state.
func recordResourceVersion(ctx context.Context, private privateSetter, live *unstructured.Unstructured, diags *diag.Diagnostics) {
	if private == nil || live == nil || live.GetResourceVersion() == "" {
		return
	}
	v, err := json.Marshal(live.GetResourceVersion())
	if err == nil {
		diags.Append(private.SetKey(ctx, observedKey, v)...)
	}
}

// warnChangedSincePlan warns, before an update, when another client changed the object after
// the state the plan was computed against was read: the update sets the configured fields
// back, which the plan did not show. It names each such field, its value then and now, and
// who owns it now. It warns rather than fails: Terraform owns the fields of its
// configuration (the apply is forced), and failing would leave a controller that keeps
// writing a field no way to apply at all; the warning makes the overwrite visible instead
// of silent. Nothing is said when the read fails: the write reports the connection.
func (r *Resource) warnChangedSincePlan(ctx context.Context, c *kube.Client, prior tfsdk.State, observed []byte, name string, diags *diag.Diagnostics) {
	var rv string
	if len(observed) == 0 || json.Unmarshal(observed, &rv) != nil || rv == "" {
		return // written by a provider version that did not record it
	}
	live, err := c.Get(ctx, r.kind.GVR(), name)
	if err != nil || live == nil || live.GetResourceVersion() == rv {
		return
	}
	before, err := r.toObject(prior.Raw)
	if err != nil {
		return
	}
	changes := kube.SpecChanges(before, live)
	tflog.Info(ctx, r.kind.GVK.Kind+" changed since the plan was computed", map[string]any{
		"name": name, "planned_against": rv, "now": live.GetResourceVersion(), "changed_fields": len(changes),
	})
	if len(changes) == 0 {
		return // only fields outside the configuration (status, other managers' labels)
	}
	var b strings.Builder
	for _, ch := range changes {
		fmt.Fprintf(&b, "\n  - %s: %s when planned, now %s", ch.Path, show(ch.Before), show(ch.After))
		if len(ch.Managers) > 0 {
			fmt.Fprintf(&b, " (owned by %s)", strings.Join(quoteAll(ch.Managers), ", "))
		}
	}
	diags.AddWarning(fmt.Sprintf("%s %q changed since the plan", r.kind.GVK.Kind, name),
		fmt.Sprintf("Another client changed %s %q after the state this plan was computed against was read (resourceVersion %s, now %s). "+
			"This apply sets these fields back to the configuration, which the plan did not show:%s\n\n"+
			"If the other change should stay, put it into the configuration; if a controller keeps making it, it will fight every apply.",
			r.kind.GVK.Kind, name, rv, live.GetResourceVersion(), b.String()))
}

func show(v any) string {
	if v == nil {
		return "absent"
	}
	j, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(j)
}
