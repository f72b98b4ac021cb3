package nap

// Network Contributor grants: create or adopt, roll back after a failed apply, revoke what
// this resource created and no longer needs.

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
)

// grant makes sure the principal holds Network Contributor at each scope. It returns the
// assignments to track and those it created in this call.
func (r *Resource) grant(ctx context.Context, c *clients, scopes []string, principal string, prior []azure.RoleAssignment, diags *diag.Diagnostics) (tracked, created []azure.RoleAssignment, ok bool) {
	tracked = append(tracked, prior...)
	sort.Strings(scopes)
	for _, scope := range scopes {
		if hasGrant(tracked, scope, principal) {
			continue
		}
		rc, err := c.role(scope)
		if err == nil {
			var ra azure.RoleAssignment
			ra, err = rc.EnsureNetworkContributor(ctx, scope, principal)
			if err == nil {
				tflog.Info(ctx, "network contributor grant", map[string]any{"scope": scope, "id": ra.ID, "created": ra.Created})
				tracked = append(tracked, ra)
				if ra.Created {
					created = append(created, ra)
				}
				continue
			}
		}
		diags.AddAttributeError(path.Root("network_contributor_scopes"), "Cannot grant Network Contributor", err.Error())
		return r.rollback(ctx, c, tracked, created, diags), nil, false
	}
	return tracked, created, true
}

// rollback deletes the assignments created in this apply and returns tracked without them.
// What cannot be deleted stays tracked and is named, so that nothing is left behind unseen.
func (r *Resource) rollback(ctx context.Context, c *clients, tracked, created []azure.RoleAssignment, diags *diag.Diagnostics) []azure.RoleAssignment {
	// The apply's own context may be what ran out; cleaning up deserves its own short budget.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), defaultReadTimeout)
	defer cancel()
	gone := map[string]bool{}
	for _, ra := range created {
		rc, err := c.role(ra.Scope)
		if err == nil {
			err = rc.Delete(cctx, ra.ID)
		}
		if err != nil {
			diags.AddError("Role assignment left behind", fmt.Sprintf("The apply failed after creating role assignment %s, and removing it failed too: %v. Delete it by hand or run the apply again.", ra.ID, err))
			continue
		}
		tflog.Info(ctx, "removed the role assignment created by the failed apply", map[string]any{"id": ra.ID})
		gone[strings.ToLower(ra.ID)] = true
	}
	var out []azure.RoleAssignment
	for _, ra := range tracked {
		if !gone[strings.ToLower(ra.ID)] {
			out = append(out, ra)
		}
	}
	return out
}

// revokeStale forgets tracked grants no longer wanted (scope dropped, or the cluster identity
// changed), deleting those this resource created.
func (r *Resource) revokeStale(ctx context.Context, c *clients, tracked []azure.RoleAssignment, scopes []string, principal string, diags *diag.Diagnostics) []azure.RoleAssignment {
	var keep []azure.RoleAssignment
	for _, ra := range tracked {
		wanted := strings.EqualFold(ra.PrincipalID, principal) && slicesContainsFold(scopes, ra.Scope)
		if wanted {
			keep = append(keep, ra)
			continue
		}
		if ra.Created {
			rc, err := c.role(ra.Scope)
			if err == nil {
				err = rc.Delete(ctx, ra.ID)
			}
			if err != nil {
				diags.AddError("Cannot remove a role assignment", fmt.Sprintf("Role assignment %s (scope %s) is no longer wanted but could not be deleted: %v.", ra.ID, ra.Scope, err))
				keep = append(keep, ra)
			}
		}
	}
	return keep
}
