package nap_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure/armfake"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider"
)

const typeName = "karpenter_aks_node_auto_provisioning"

// protoServer drives the provider through the plugin protocol, as Terraform does, for what the
// terraform-plugin-testing harness cannot observe: warning diagnostics.
type protoServer struct {
	t   *testing.T
	srv tfprotov6.ProviderServer
	typ tftypes.Object
}

func newProtoServer(t *testing.T, w *armfake.World) *protoServer {
	t.Helper()
	srv, err := providerserver.NewProtocol6WithError(provider.New("test",
		provider.WithAzureOptions(azure.Options{ClientOptions: w.ClientOptions(), Credential: armfake.Credential()}))())()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	p := &protoServer{t: t, srv: srv, typ: schemas.ResourceSchemas[typeName].ValueType().(tftypes.Object)}
	ptyp := schemas.Provider.ValueType().(tftypes.Object)
	cfg := p.dv(ptyp, nullObject(ptyp, nil))
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: cfg})
	if err != nil || hasError(resp.Diagnostics) {
		t.Fatalf("configure: %v %v", err, diagText(resp.Diagnostics))
	}
	return p
}

// nullObject is an object of typ whose attributes are null except those in set.
func nullObject(typ tftypes.Object, set map[string]tftypes.Value) tftypes.Value {
	vals := map[string]tftypes.Value{}
	for k, at := range typ.AttributeTypes {
		vals[k] = tftypes.NewValue(at, nil)
		if v, ok := set[k]; ok {
			vals[k] = v
		}
	}
	return tftypes.NewValue(typ, vals)
}

func (p *protoServer) dv(typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	p.t.Helper()
	d, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		p.t.Fatal(err)
	}
	return &d
}

func hasError(ds []*tfprotov6.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

func diagText(ds []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "[%v] %s: %s\n", d.Severity, d.Summary, d.Detail)
	}
	return b.String()
}

func findWarning(ds []*tfprotov6.Diagnostic, summary string) *tfprotov6.Diagnostic {
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == summary {
			return d
		}
	}
	return nil
}

// By default destroy leaves NAP enabled and says so, in the plan and in the apply, and removes
// only the grant it created.
func TestDestroyLeavesNAPEnabledWithWarning(t *testing.T) {
	w := armfake.New(sub, rg, name, armfake.Compliant(subnet, principal), armfake.NAP{Mode: "Manual"})
	p := newProtoServer(t, w)
	ctx := context.Background()
	scopes := tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, subnet)})
	config := p.dv(p.typ, nullObject(p.typ, map[string]tftypes.Value{
		"cluster_id":                 tftypes.NewValue(tftypes.String, w.ClusterID()),
		"network_contributor_scopes": scopes,
		"wait_for_crds":              tftypes.NewValue(tftypes.Bool, false),
	}))
	null := p.dv(p.typ, tftypes.NewValue(p.typ, nil))

	plan, err := p.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: typeName, PriorState: null, ProposedNewState: config, Config: config})
	if err != nil || hasError(plan.Diagnostics) {
		t.Fatalf("plan create: %v %s", err, diagText(plan.Diagnostics))
	}
	created, err := p.srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: typeName, PriorState: null, PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate})
	if err != nil || hasError(created.Diagnostics) {
		t.Fatalf("apply create: %v %s", err, diagText(created.Diagnostics))
	}
	if _, nap := w.Cluster(); nap.Mode != "Auto" || len(w.Assignments()) != 1 {
		t.Fatalf("after create: mode %q, %d assignments", nap.Mode, len(w.Assignments()))
	}

	destroyPlan, err := p.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: typeName, PriorState: created.NewState, ProposedNewState: null, Config: null, PriorPrivate: created.Private})
	if err != nil || hasError(destroyPlan.Diagnostics) {
		t.Fatalf("plan destroy: %v %s", err, diagText(destroyPlan.Diagnostics))
	}
	if d := findWarning(destroyPlan.Diagnostics, "Node auto provisioning stays enabled"); d == nil || !strings.Contains(d.Detail, "switch_back_to_manual_on_destroy = true") {
		t.Fatalf("the destroy plan does not warn that NAP stays enabled:\n%s", diagText(destroyPlan.Diagnostics))
	}
	destroyed, err := p.srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: typeName, PriorState: created.NewState, PlannedState: null, Config: null, PlannedPrivate: created.Private})
	if err != nil || hasError(destroyed.Diagnostics) {
		t.Fatalf("apply destroy: %v %s", err, diagText(destroyed.Diagnostics))
	}
	d := findWarning(destroyed.Diagnostics, "Node auto provisioning left enabled")
	if d == nil || !strings.Contains(d.Detail, "keeps node provisioning mode Auto") || !strings.Contains(d.Detail, subnet) {
		t.Fatalf("destroy does not say that NAP stays on and which grant went:\n%s", diagText(destroyed.Diagnostics))
	}
	if _, nap := w.Cluster(); nap.Mode != "Auto" {
		t.Fatalf("destroy changed the mode to %q", nap.Mode)
	}
	if len(w.Assignments()) != 0 {
		t.Fatalf("destroy left %d assignments", len(w.Assignments()))
	}
	if n := w.Writes(); n != 1 {
		t.Fatalf("cluster writes = %d, want only the create's", n)
	}
}
