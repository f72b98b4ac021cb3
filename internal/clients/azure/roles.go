package azure

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/authorization/armauthorization/v2"
	"github.com/google/uuid"
)

// NetworkContributorRoleID is the built-in Network Contributor role definition, which the
// cluster identity needs on a custom VNet or subnet so that NAP can create node NICs there.
const NetworkContributorRoleID = "4d97b98b-1d4f-4787-a291-c67834d212e7"

// assignmentNamespace is the namespace of ARM's guid() function; the deterministic role
// assignment names are UUIDv5 in it, as Bicep's guid() produces them.
var assignmentNamespace = uuid.MustParse("11fb06fb-712d-4ddd-98c7-e71bbd588830")

// ParseNetworkScope checks that id names a virtual network or a subnet, the scopes a Network
// Contributor grant for NAP may be given at.
func ParseNetworkScope(id string) (*arm.ResourceID, error) {
	r, err := arm.ParseResourceID(id)
	if err != nil {
		return nil, fmt.Errorf("not an Azure resource ID: %w", err)
	}
	t := r.ResourceType.String()
	if !strings.EqualFold(t, "Microsoft.Network/virtualNetworks") && !strings.EqualFold(t, "Microsoft.Network/virtualNetworks/subnets") {
		return nil, fmt.Errorf("resource type is %s; expected a virtual network (/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>) or one of its subnets (…/virtualNetworks/<vnet>/subnets/<subnet>)", t)
	}
	if r.SubscriptionID == "" || r.ResourceGroupName == "" {
		return nil, fmt.Errorf("the ID names no subscription or resource group")
	}
	return r, nil
}

// AssignmentName is the role assignment name this provider uses for a grant: a UUIDv5 of the
// scope, principal and role, so that a retried or repeated apply finds its own assignment
// instead of creating another. It is computed as ARM's guid(toLower(scope),
// toLower(principalId), roleId) is (UUIDv5 in ARM's namespace over the arguments joined with
// "-"), which the Bicep network-contributor module uses, so both tools name a grant alike.
// Azure IDs are case-insensitive, so the IDs are lowercased.
func AssignmentName(scope, principalID, roleID string) string {
	key := strings.ToLower(strings.TrimSuffix(scope, "/")) + "-" + strings.ToLower(principalID) + "-" + roleID
	return uuid.NewSHA1(assignmentNamespace, []byte(key)).String()
}

// RoleAssignment is one Network Contributor grant.
type RoleAssignment struct {
	ID          string `json:"id"`
	Scope       string `json:"scope"`
	PrincipalID string `json:"principal_id"`
	// Created says that this provider created the assignment (it carries the deterministic
	// name); false for an identical assignment that existed under another name and was adopted.
	Created bool `json:"created"`
}

// RoleClient grants and revokes Network Contributor.
type RoleClient struct {
	client *armauthorization.RoleAssignmentsClient
}

// NewRoleClient returns a role assignment client. It makes no request.
func NewRoleClient(subscriptionID string, cred azcore.TokenCredential, opts *arm.ClientOptions) (*RoleClient, error) {
	c, err := armauthorization.NewRoleAssignmentsClient(subscriptionID, cred, WithDefaultRetries(opts))
	if err != nil {
		return nil, err
	}
	return &RoleClient{client: c}, nil
}

func roleDefinitionID(scope *arm.ResourceID) string {
	return fmt.Sprintf("/subscriptions/%s/providers/Microsoft.Authorization/roleDefinitions/%s", scope.SubscriptionID, NetworkContributorRoleID)
}

// sameRole compares role definition IDs by their GUID: Azure returns them under the
// subscription of the assignment, which may differ in case or form from what was sent.
func sameRole(defID, roleGUID string) bool {
	i := strings.LastIndex(defID, "/")
	return strings.EqualFold(defID[i+1:], roleGUID)
}

func sameScope(a, b string) bool {
	return strings.EqualFold(strings.Trim(a, "/"), strings.Trim(b, "/"))
}

// ScopeCovers says whether a role assigned at scope applies to the resource id: the same
// resource, or one below it (a subnet below its VNet, resource group or subscription).
func ScopeCovers(scope, id string) bool {
	s, r := strings.ToLower(strings.Trim(scope, "/")), strings.ToLower(strings.Trim(id, "/"))
	return s != "" && (r == s || strings.HasPrefix(r, s+"/"))
}

// EnsureNetworkContributor makes sure that principalID holds Network Contributor at exactly
// scope. An identical assignment (same principal, role and scope) under any name is adopted
// rather than duplicated; otherwise one is created under the deterministic name.
func (r *RoleClient) EnsureNetworkContributor(ctx context.Context, scope, principalID string) (RoleAssignment, error) {
	sc, err := ParseNetworkScope(scope)
	if err != nil {
		return RoleAssignment{}, fmt.Errorf("network contributor scope %q: %w", scope, err)
	}
	name := AssignmentName(scope, principalID, NetworkContributorRoleID)
	if ra, ok, err := r.findIdentical(ctx, scope, principalID, name); err != nil || ok {
		return ra, err
	}
	resp, err := r.client.Create(ctx, strings.TrimPrefix(scope, "/"), name, armauthorization.RoleAssignmentCreateParameters{
		Properties: &armauthorization.RoleAssignmentProperties{
			PrincipalID:      to.Ptr(principalID),
			RoleDefinitionID: to.Ptr(roleDefinitionID(sc)),
			// Declaring the type lets Azure accept a freshly created identity before Entra ID
			// replication has caught up, instead of failing with PrincipalNotFound.
			PrincipalType: to.Ptr(armauthorization.PrincipalTypeServicePrincipal),
			Description:   to.Ptr("Network Contributor for AKS node auto provisioning (terraform-provider-karpenter)"),
		},
	}, nil)
	var re *azcore.ResponseError
	if errors.As(err, &re) && re.StatusCode == http.StatusConflict {
		// RoleAssignmentExists: created concurrently, or listed before it was visible.
		if ra, ok, ferr := r.findIdentical(ctx, scope, principalID, name); ferr == nil && ok {
			return ra, nil
		}
	}
	if err != nil {
		return RoleAssignment{}, fmt.Errorf("granting Network Contributor on %s to principal %s: %w", scope, principalID, err)
	}
	id := fmt.Sprintf("%s/providers/Microsoft.Authorization/roleAssignments/%s", strings.TrimSuffix(scope, "/"), name)
	if resp.ID != nil && *resp.ID != "" {
		id = *resp.ID
	}
	return RoleAssignment{ID: id, Scope: scope, PrincipalID: principalID, Created: true}, nil
}

// findIdentical lists the principal's assignments at the scope and returns one that grants
// Network Contributor at exactly that scope. Assignments inherited from a parent scope are not
// counted: the grant is meant to be the narrowest one, and adopting a parent's would tie this
// resource to an assignment it cannot reason about.
func (r *RoleClient) findIdentical(ctx context.Context, scope, principalID, ownName string) (RoleAssignment, bool, error) {
	// The SDK appends $filter unencoded, so it must arrive encoded.
	filter := strings.ReplaceAll(url.QueryEscape(fmt.Sprintf("principalId eq '%s'", principalID)), "+", "%20")
	pager := r.client.NewListForScopePager(strings.TrimPrefix(scope, "/"), &armauthorization.RoleAssignmentsClientListForScopeOptions{Filter: &filter})
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			return RoleAssignment{}, false, fmt.Errorf("listing role assignments at %s: %w", scope, err)
		}
		for _, ra := range page.Value {
			if ra == nil || ra.Properties == nil || ra.ID == nil {
				continue
			}
			p := ra.Properties
			if p.PrincipalID == nil || !strings.EqualFold(*p.PrincipalID, principalID) || p.RoleDefinitionID == nil || !sameRole(*p.RoleDefinitionID, NetworkContributorRoleID) {
				continue
			}
			if p.Scope == nil || !sameScope(*p.Scope, scope) {
				continue
			}
			own := ra.Name != nil && strings.EqualFold(*ra.Name, ownName)
			return RoleAssignment{ID: *ra.ID, Scope: scope, PrincipalID: principalID, Created: own}, true, nil
		}
	}
	return RoleAssignment{}, false, nil
}

// splitAssignmentID splits a role assignment ID into its scope and name.
func splitAssignmentID(id string) (scope, name string, err error) {
	const sep = "/providers/microsoft.authorization/roleassignments/"
	i := strings.LastIndex(strings.ToLower(id), sep)
	if i < 0 || i+len(sep) >= len(id) {
		return "", "", fmt.Errorf("%q is not a role assignment ID", id)
	}
	return strings.TrimPrefix(id[:i], "/"), id[i+len(sep):], nil
}

// Delete removes a role assignment; one that is already gone is not an error.
func (r *RoleClient) Delete(ctx context.Context, id string) error {
	scope, name, err := splitAssignmentID(id)
	if err != nil {
		return err
	}
	_, err = r.client.Delete(ctx, scope, name, nil)
	if err != nil && !NotFound(err) {
		return fmt.Errorf("deleting role assignment %s: %w", id, err)
	}
	return nil
}

// Exists says whether the role assignment is still there.
func (r *RoleClient) Exists(ctx context.Context, id string) (bool, error) {
	scope, name, err := splitAssignmentID(id)
	if err != nil {
		return false, err
	}
	_, err = r.client.Get(ctx, scope, name, nil)
	if NotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading role assignment %s: %w", id, err)
	}
	return true, nil
}
