package nap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
)

// privateKey holds, in the resource's private state, the role assignments this resource
// tracks and whether it created each, so that destroy removes only its own.
const privateKey = "role_assignments"

// privateState is the part of framework private state this resource reads and writes.
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

func loadTracked(ctx context.Context, p privateState, diags *diag.Diagnostics) []azure.RoleAssignment {
	if p == nil {
		return nil
	}
	b, d := p.GetKey(ctx, privateKey)
	diags.Append(d...)
	if len(b) == 0 {
		return nil
	}
	var out []azure.RoleAssignment
	if err := json.Unmarshal(b, &out); err != nil {
		diags.AddError("Unreadable private state", "The role assignments recorded for this resource cannot be read: "+err.Error())
		return nil
	}
	return out
}

func encodeTracked(t []azure.RoleAssignment) []byte {
	if t == nil {
		t = []azure.RoleAssignment{}
	}
	b, _ := json.Marshal(t) // a slice of plain structs always marshals
	return b
}

type clients struct {
	id      azure.ClusterID
	cluster *azure.ClusterClient
	roles   map[string]*azure.RoleClient
	newRole func(sub string) (*azure.RoleClient, error)
}

// role returns a role assignment client for the subscription of scope.
func (c *clients) role(scope string) (*azure.RoleClient, error) {
	sc, err := azure.ParseNetworkScope(scope)
	if err != nil {
		return nil, err
	}
	if rc, ok := c.roles[sc.SubscriptionID]; ok {
		return rc, nil
	}
	rc, err := c.newRole(sc.SubscriptionID)
	if err != nil {
		return nil, err
	}
	c.roles[sc.SubscriptionID] = rc
	return rc, nil
}

func (r *Resource) clients(clusterID string, diags *diag.Diagnostics) *clients {
	if r.data == nil {
		diags.AddError("Provider not configured", "The karpenter provider was not configured before this resource was used.")
		return nil
	}
	id, err := azure.ParseClusterID(clusterID)
	if err != nil {
		diags.AddAttributeError(path.Root("cluster_id"), "Invalid AKS cluster ID", err.Error())
		return nil
	}
	_, cred, copts, err := r.data.Clients.Azure()
	if err != nil {
		diags.AddError("Azure is not reachable", err.Error())
		return nil
	}
	cc, err := azure.NewClusterClient(id, cred, copts)
	if err != nil {
		diags.AddError("Cannot create the AKS client", err.Error())
		return nil
	}
	cc.PollInterval = r.data.Clients.AzurePollInterval
	return &clients{id: id, cluster: cc, roles: map[string]*azure.RoleClient{}, newRole: func(sub string) (*azure.RoleClient, error) {
		return azure.NewRoleClient(sub, cred, copts)
	}}
}

func clusterReadError(c *clients, err error) (string, string) {
	if azure.NotFound(err) {
		return "AKS cluster not found", fmt.Sprintf("The AKS cluster %s does not exist in resource group %s of subscription %s, or the provider's Azure identity cannot see it. Check cluster_id.",
			c.id.Name, c.id.ResourceGroup, c.id.SubscriptionID)
	}
	return "Cannot read the AKS cluster", err.Error()
}

func (r *Resource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.write(ctx, req.Plan, nil, timeouts.Value.Create, &resp.State, resp.Private, &resp.Diagnostics)
}

func (r *Resource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	prior := loadTracked(ctx, req.Private, &resp.Diagnostics)
	r.write(ctx, req.Plan, prior, timeouts.Value.Update, &resp.State, resp.Private, &resp.Diagnostics)
}

// write runs apply within the operation's timeout and records the result. The tracked grants
// are kept in private state also when apply fails, so that a later apply or destroy can find
// what Azure still holds (after a failed create Terraform keeps no state, and no grant).
func (r *Resource) write(ctx context.Context, p tfsdk.Plan, prior []azure.RoleAssignment,
	timeout func(timeouts.Value, context.Context, time.Duration) (time.Duration, diag.Diagnostics),
	state *tfsdk.State, private interface {
		SetKey(context.Context, string, []byte) diag.Diagnostics
	}, diags *diag.Diagnostics) {
	var plan model
	diags.Append(p.Get(ctx, &plan)...)
	if diags.HasError() {
		return
	}
	d, dd := timeout(plan.Timeouts, ctx, defaultWriteTimeout)
	diags.Append(dd...)
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	tracked, ok := r.apply(ctx, &plan, prior, diags)
	if ok {
		diags.Append(state.Set(ctx, &plan)...)
	}
	diags.Append(private.SetKey(ctx, privateKey, encodeTracked(tracked))...)
}

// apply makes the cluster match plan and fills plan's computed attributes. It returns the
// role assignments to track from now on. Order matters: nothing is changed before the
// prerequisites pass, grants come before the mode switch (NAP needs them from its first
// node on), and a failure after grants were created removes those grants again, so a failed
// apply leaves no assignment that no state records.
func (r *Resource) apply(ctx context.Context, plan *model, prior []azure.RoleAssignment, diags *diag.Diagnostics) ([]azure.RoleAssignment, bool) {
	c := r.clients(plan.ClusterID.ValueString(), diags)
	if c == nil {
		return prior, false
	}
	// A running operation (one an earlier apply stopped waiting for) is waited for: until it
	// ends, the mode AKS reports is only the one requested.
	cl, err := c.cluster.GetSettled(ctx, func(msg string) { tflog.Info(ctx, msg, map[string]any{"cluster_id": plan.ClusterID.ValueString()}) })
	if err != nil {
		var te *azure.TimeoutError
		if errors.As(err, &te) {
			diags.AddError("Timed out waiting for AKS", te.Error()+". Apply again, with larger timeouts if needed.")
			return prior, false
		}
		s, d := clusterReadError(c, err)
		diags.AddError(s, d)
		return prior, false
	}
	want := plan.want()
	if !cl.NodeProvisioning.Satisfies(want) {
		if !r.precheck(ctx, cl, want, diags) {
			return prior, false
		}
	}

	principal, perr := azure.ClusterPrincipal(&cl.Typed)
	scopes := plan.scopes(ctx)
	if len(scopes) > 0 && perr != nil {
		diags.AddAttributeError(path.Root("network_contributor_scopes"), "Cannot grant Network Contributor",
			fmt.Sprintf("The grants need the cluster's managed identity, but %v.", perr))
		return prior, false
	}
	if want.EffectiveMode() == azure.ModeAuto && len(scopes) == 0 {
		if subnets := azure.NodeSubnets(&cl.Typed); len(subnets) > 0 {
			diags.AddAttributeWarning(path.Root("network_contributor_scopes"), "Custom subnets without a Network Contributor grant",
				fmt.Sprintf("The cluster's agent pools use custom subnets (%s). NAP creates node network interfaces there as the cluster identity, "+
					"which needs the Network Contributor role on them. List the subnets (or their VNet) in network_contributor_scopes, unless the role is granted elsewhere.",
					strings.Join(subnets, ", ")))
		}
	}

	tracked, created, ok := r.grant(ctx, c, scopes, principal, prior, diags)
	if !ok {
		return tracked, false
	}
	fail := func(summary, detail string) ([]azure.RoleAssignment, bool) {
		diags.AddError(summary, detail)
		return r.rollback(ctx, c, tracked, created, diags), false
	}

	if !cl.NodeProvisioning.Satisfies(want) {
		res, err := c.cluster.SetNodeProvisioning(ctx, want, func(fresh *azure.Cluster) error {
			// The cluster was read again (after a concurrent change): check it again.
			var d diag.Diagnostics
			if !r.precheck(ctx, fresh, want, &d) {
				return fmt.Errorf("the cluster no longer meets the prerequisites: %s", summarize(d))
			}
			return nil
		}, func(msg string) { tflog.Info(ctx, msg, map[string]any{"cluster_id": plan.ClusterID.ValueString()}) })
		if err != nil {
			var te *azure.TimeoutError
			if errors.As(err, &te) {
				// The update goes on in Azure and NAP needs the grants from its first node on,
				// so they stay; they carry deterministic names, and the next apply takes them
				// over as its own.
				diags.AddError("Timed out waiting for AKS", te.Error()+". The Network Contributor grants made for the update stay, since NAP needs them if it completes. "+
					"Apply again, with larger timeouts if needed: the apply waits for the running operation to finish, does not write a mode the cluster already has, "+
					"and takes the grants over.")
				return tracked, false
			}
			return fail("Cannot set the node provisioning mode", err.Error())
		}
		cl = res.Cluster
		if !cl.NodeProvisioning.Satisfies(want) {
			return fail("AKS did not apply the node provisioning mode", fmt.Sprintf("After the update AKS reports mode %s and default node pools %s, not %s and %s.",
				cl.NodeProvisioning.EffectiveMode(), cl.NodeProvisioning.EffectiveDefaultNodePools(), want.EffectiveMode(), want.EffectiveDefaultNodePools()))
		}
	}

	if plan.ManageCRDs.ValueBool() || plan.WaitForCRDs.ValueBool() {
		if err := r.crds(ctx, r.data.KubeOf(plan.ClusterID.ValueString()), plan.ManageCRDs.ValueBool()); err != nil {
			return fail("Karpenter CRDs are not ready", err.Error())
		}
		plan.CRDsEstablished = types.BoolValue(true)
	} else {
		plan.CRDsEstablished = types.BoolNull()
	}

	// Grants no longer wanted go last: until the mode switch succeeded they may still be needed.
	tracked = r.revokeStale(ctx, c, tracked, scopes, principal, diags)

	plan.ID = plan.ClusterID
	plan.EffectiveMode = types.StringValue(cl.NodeProvisioning.EffectiveMode())
	plan.KubernetesVersion = types.StringValue(cl.KubernetesVersion())
	plan.PrincipalID = types.StringNull()
	if perr == nil {
		plan.PrincipalID = types.StringValue(principal)
	}
	plan.RoleAssignmentIDs = assignmentMap(tracked)
	return tracked, !diags.HasError()
}

// precheck reports the prerequisites for changing the cluster to want. Enabling NAP checks
// them all; other changes only need a running cluster, and leaving NAP needs no NAP nodes.
func (r *Resource) precheck(ctx context.Context, cl *azure.Cluster, want azure.NodeProvisioning, diags *diag.Diagnostics) bool {
	findings := azure.CheckPrerequisites(&cl.Typed, want)
	enabling := want.EffectiveMode() == azure.ModeAuto && cl.NodeProvisioning.EffectiveMode() != azure.ModeAuto
	if !enabling {
		var keep azure.Findings
		for _, f := range findings {
			if f.Check == "power-state" {
				keep = append(keep, f)
			}
		}
		findings = keep
	}
	for _, f := range findings {
		detail := fmt.Sprintf("%s\n\n(AKS cluster %s, prerequisite %q)", f.Detail, cl.ID.Name, f.Check)
		if f.Severity == azure.Error {
			diags.AddAttributeError(path.Root("cluster_id"), "NAP prerequisite not met: "+f.Summary, detail)
		} else {
			diags.AddAttributeWarning(path.Root("cluster_id"), "NAP recommendation: "+f.Summary, detail)
		}
	}
	if len(findings.Errors()) > 0 {
		return false
	}
	if want.EffectiveMode() == azure.ModeManual && cl.NodeProvisioning.EffectiveMode() == azure.ModeAuto {
		return r.checkNoNAPNodes(ctx, r.data.KubeOf(cl.ID.String()), cl.ID.Name, diags)
	}
	return true
}

func summarize(d diag.Diagnostics) string {
	var s []string
	for _, x := range d.Errors() {
		s = append(s, x.Summary())
	}
	return strings.Join(s, "; ")
}

func hasGrant(t []azure.RoleAssignment, scope, principal string) bool {
	for _, ra := range t {
		if strings.EqualFold(strings.TrimSuffix(ra.Scope, "/"), strings.TrimSuffix(scope, "/")) && strings.EqualFold(ra.PrincipalID, principal) {
			return true
		}
	}
	return false
}

func slicesContainsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(strings.TrimSuffix(x, "/"), strings.TrimSuffix(s, "/")) {
			return true
		}
	}
	return false
}

func assignmentMap(t []azure.RoleAssignment) types.Map {
	m := map[string]attr.Value{}
	for _, ra := range t {
		m[ra.Scope] = types.StringValue(ra.ID)
	}
	return types.MapValueMust(types.StringType, m)
}

// stored reads what a Read or Delete starts from: the state, the tracked grants and the
// clients for the cluster; ok is false when any of them failed (diagnostics say why).
func (r *Resource) stored(ctx context.Context, state tfsdk.State, private privateState, diags *diag.Diagnostics) (st model, tracked []azure.RoleAssignment, c *clients, ok bool) {
	diags.Append(state.Get(ctx, &st)...)
	tracked = loadTracked(ctx, private, diags)
	if diags.HasError() {
		return st, nil, nil, false
	}
	c = r.clients(st.ClusterID.ValueString(), diags)
	return st, tracked, c, c != nil
}

func (r *Resource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	st, tracked, c, ok := r.stored(ctx, req.State, req.Private, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, d := st.Timeouts.Read(ctx, defaultReadTimeout)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cl, err := c.cluster.Get(ctx)
	if azure.NotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		s, d := clusterReadError(c, err)
		resp.Diagnostics.AddError(s, d)
		return
	}
	// The live mode goes into `mode` itself: a switch made outside Terraform then shows as
	// a planned change back to the configured mode.
	live := cl.NodeProvisioning
	st.ID = st.ClusterID
	st.Mode = types.StringValue(live.EffectiveMode())
	st.EffectiveMode = types.StringValue(live.EffectiveMode())
	if live.EffectiveMode() == azure.ModeAuto || st.DefaultNodePools.IsNull() {
		st.DefaultNodePools = types.StringValue(live.EffectiveDefaultNodePools())
	}
	st.KubernetesVersion = types.StringValue(cl.KubernetesVersion())
	if p, err := azure.ClusterPrincipal(&cl.Typed); err == nil {
		st.PrincipalID = types.StringValue(p)
	} else {
		st.PrincipalID = types.StringNull()
	}

	// Grants deleted outside Terraform are forgotten, which makes the plan re-create them.
	var kept []azure.RoleAssignment
	for _, ra := range tracked {
		rc, err := c.role(ra.Scope)
		var exists bool
		if err == nil {
			exists, err = rc.Exists(ctx, ra.ID)
		}
		if err != nil {
			resp.Diagnostics.AddWarning("Cannot check a role assignment", fmt.Sprintf("Role assignment %s: %v. It is kept as recorded.", ra.ID, err))
			exists = true
		}
		if exists {
			kept = append(kept, ra)
		} else {
			tflog.Info(ctx, "role assignment deleted outside Terraform", map[string]any{"id": ra.ID})
		}
	}
	st.RoleAssignmentIDs = assignmentMap(kept)

	if st.WaitForCRDs.ValueBool() || st.ManageCRDs.ValueBool() {
		est, err := r.crdsEstablished(ctx, r.data.KubeOf(st.ClusterID.ValueString()), st.ManageCRDs.ValueBool())
		if err != nil {
			// Refresh must not fail because the cluster's API server is unreachable: the
			// Azure side was read, and the CRDs are checked again at apply.
			resp.Diagnostics.AddWarning("Cannot check the Karpenter CRDs", err.Error())
		} else {
			st.CRDsEstablished = types.BoolValue(est)
		}
	} else {
		st.CRDsEstablished = types.BoolNull()
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &st)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKey, encodeTracked(kept))...)
}

func (r *Resource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	st, tracked, c, ok := r.stored(ctx, req.State, req.Private, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, d := st.Timeouts.Delete(ctx, defaultWriteTimeout)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	switchBack := st.SwitchBackToManualOnDestroy.ValueBool()
	mode := st.EffectiveMode.ValueString()
	if switchBack {
		want := azure.NodeProvisioning{Mode: azure.ModeManual}
		cl, err := c.cluster.Get(ctx)
		switch {
		case azure.NotFound(err):
			// The cluster is gone, and its mode with it; only the grants remain to clean up.
		case err != nil:
			s, d := clusterReadError(c, err)
			resp.Diagnostics.AddError(s, d)
			return
		case !cl.NodeProvisioning.Satisfies(want):
			if !r.precheck(ctx, cl, want, &resp.Diagnostics) {
				return
			}
			_, err := c.cluster.SetNodeProvisioning(ctx, want, nil, func(msg string) {
				tflog.Info(ctx, msg, map[string]any{"cluster_id": st.ClusterID.ValueString()})
			})
			if err != nil {
				resp.Diagnostics.AddError("Cannot switch node provisioning back to Manual", err.Error())
				return
			}
		}
		mode = azure.ModeManual
	}
	var removed []string
	for _, ra := range tracked {
		if !ra.Created {
			continue // adopted: someone else's grant
		}
		rc, err := c.role(ra.Scope)
		if err == nil {
			err = rc.Delete(ctx, ra.ID)
		}
		if err != nil {
			resp.Diagnostics.AddError("Cannot remove a role assignment", fmt.Sprintf("Role assignment %s (scope %s): %v.", ra.ID, ra.Scope, err))
			continue
		}
		removed = append(removed, ra.Scope)
	}
	if !switchBack {
		detail := fmt.Sprintf("AKS cluster %s keeps node provisioning mode %s: destroying this resource does not switch it back. "+
			"Set switch_back_to_manual_on_destroy = true (and apply) before destroying to have it switched to Manual, or run az aks update --node-provisioning-mode Manual once no NAP nodes remain.",
			c.id.Name, orUnknown(mode))
		if len(removed) > 0 {
			detail += fmt.Sprintf("\n\nThe Network Contributor grants this resource created were removed (%s); NAP cannot create nodes in those networks until the cluster identity holds the role again.", strings.Join(removed, ", "))
		}
		resp.Diagnostics.AddWarning("Node auto provisioning left enabled", detail)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}
