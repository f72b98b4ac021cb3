package crdresource

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// testKind is the AKSNodeClass without the aksnodeclass package's hooks: the attribute tree
// is the one kinds builds for it.
var testKind = &Kind{Kind: kinds.AKSNodeClass, TypeSuffix: "aksnodeclass"}

// readState creates the object and returns the resource's state and private resourceVersion
// as a refresh leaves them: what the next plan is computed against.
func readState(t *testing.T, r *Resource, c *kube.Client, obj *unstructured.Unstructured) (tfsdk.State, []byte) {
	t.Helper()
	ctx := context.Background()
	live, err := c.Create(ctx, r.kind.GVR(), obj)
	if err != nil {
		t.Fatal(err)
	}
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	prior := map[string]tftypes.Value{}
	for k, at := range typ.AttributeTypes {
		prior[k] = tftypes.NewValue(at, nil)
	}
	prior["name"] = tftypes.NewValue(tftypes.String, obj.GetName())
	state := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, prior)}
	var diags diag.Diagnostics
	r.setState(ctx, &state, live, state.Raw, true, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	rv, _ := json.Marshal(live.GetResourceVersion())
	return state, rv
}

func nodeClass(name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.azure.com/v1beta1", "kind": "AKSNodeClass",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"imageFamily": "Ubuntu2204", "osDiskSizeGB": int64(128), "tags": map[string]any{"team": "a"}},
	}}
}

// A change another client makes after the plan was computed is named in a warning before
// the update sets it back; a change outside the configuration, or none, says nothing.
func TestWarnChangedSincePlan(t *testing.T) {
	cl := testenv.Get(t)
	c, err := kube.New(cl.Config)
	if err != nil {
		t.Fatal(err)
	}
	r := New(testKind)().(*Resource)
	ctx := context.Background()
	gvr := r.kind.GVR()

	t.Run("changed", func(t *testing.T) {
		state, rv := readState(t, r, c, nodeClass("drift-changed"))
		patch := []byte(`{"spec":{"osDiskSizeGB":256,"tags":{"team":"b"}}}`)
		if _, err := cl.Dynamic.Resource(gvr).Patch(ctx, "drift-changed", types.MergePatchType, patch, metav1.PatchOptions{FieldManager: "kubectl-edit"}); err != nil {
			t.Fatal(err)
		}
		var diags diag.Diagnostics
		r.warnChangedSincePlan(ctx, c, state, rv, "drift-changed", &diags)
		if diags.WarningsCount() != 1 || diags.HasError() {
			t.Fatalf("diagnostics = %v, want one warning", diags)
		}
		detail := diags.Warnings()[0].Detail()
		for _, want := range []string{`spec.osDiskSizeGB: 128 when planned, now 256 (owned by "kubectl-edit")`, `spec.tags.team: "a" when planned, now "b" (owned by "kubectl-edit")`, "sets these fields back"} {
			if !strings.Contains(detail, want) {
				t.Errorf("warning does not say %q:\n%s", want, detail)
			}
		}
	})

	t.Run("unchanged", func(t *testing.T) {
		state, rv := readState(t, r, c, nodeClass("drift-unchanged"))
		var diags diag.Diagnostics
		r.warnChangedSincePlan(ctx, c, state, rv, "drift-unchanged", &diags)
		if len(diags) != 0 {
			t.Errorf("diagnostics = %v, want none", diags)
		}
	})

	t.Run("outside-configuration", func(t *testing.T) {
		state, rv := readState(t, r, c, nodeClass("drift-label"))
		patch := []byte(`{"metadata":{"labels":{"team":"a"}}}`)
		if _, err := cl.Dynamic.Resource(gvr).Patch(ctx, "drift-label", types.MergePatchType, patch, metav1.PatchOptions{FieldManager: "kubectl-label"}); err != nil {
			t.Fatal(err)
		}
		var diags diag.Diagnostics
		r.warnChangedSincePlan(ctx, c, state, rv, "drift-label", &diags)
		if len(diags) != 0 {
			t.Errorf("diagnostics = %v, want none: the label is not part of the configuration", diags)
		}
	})
}
