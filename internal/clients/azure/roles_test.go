package azure_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure/armfake"
)

const networkContributor = "/subscriptions/" + napSub + "/providers/Microsoft.Authorization/roleDefinitions/" + azure.NetworkContributorRoleID

func roleClient(t *testing.T, w *armfake.World) *azure.RoleClient {
	t.Helper()
	opts := w.ClientOptions()
	rc, err := azure.NewRoleClient(napSub, armfake.Credential(), &opts)
	if err != nil {
		t.Fatal(err)
	}
	return rc
}

func TestAssignmentNameIsDeterministicUUIDv5(t *testing.T) {
	a := azure.AssignmentName(napSubnet, napPrincipal, azure.NetworkContributorRoleID)
	u, err := uuid.Parse(a)
	if err != nil || u.Version() != 5 {
		t.Fatalf("%q is not a UUIDv5 (%v)", a, err)
	}
	if b := azure.AssignmentName(strings.ToUpper(napSubnet)+"/", strings.ToUpper(napPrincipal), azure.NetworkContributorRoleID); b != a {
		t.Fatalf("case or a trailing slash changed the name: %s vs %s", a, b)
	}
	if azure.AssignmentName(napVNet, napPrincipal, azure.NetworkContributorRoleID) == a ||
		azure.AssignmentName(napSubnet, "00000000-0000-0000-0000-000000000001", azure.NetworkContributorRoleID) == a {
		t.Fatal("different scopes or principals share a name")
	}
}

// The first grant creates the assignment under the deterministic name; repeating it finds
// that assignment and creates nothing.
func TestEnsureNetworkContributorCreatesOnce(t *testing.T) {
	w := napWorld(t, armfake.NAP{})
	rc := roleClient(t, w)
	ra, err := rc.EnsureNetworkContributor(context.Background(), napSubnet, napPrincipal)
	if err != nil {
		t.Fatal(err)
	}
	name := azure.AssignmentName(napSubnet, napPrincipal, azure.NetworkContributorRoleID)
	if !ra.Created || !strings.HasSuffix(ra.ID, "/roleAssignments/"+name) || ra.Scope != napSubnet {
		t.Fatalf("assignment = %+v", ra)
	}
	all := w.Assignments()
	if len(all) != 1 {
		t.Fatalf("assignments = %d", len(all))
	}
	p := all[0].Properties
	if !strings.EqualFold(*p.Scope, napSubnet) || *p.PrincipalID != napPrincipal || !strings.HasSuffix(*p.RoleDefinitionID, "/"+azure.NetworkContributorRoleID) ||
		p.PrincipalType == nil || *p.PrincipalType != "ServicePrincipal" {
		t.Fatalf("created %+v", *p)
	}
	again, err := rc.EnsureNetworkContributor(context.Background(), napSubnet, napPrincipal)
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != ra.ID || !again.Created {
		t.Fatalf("second grant = %+v, want the same, own assignment", again)
	}
	if n := w.Count("RoleAssignmentsClient.Create", ""); n != 1 || len(w.Assignments()) != 1 {
		t.Fatalf("creates = %d, assignments = %d after a repeated grant", n, len(w.Assignments()))
	}
}

// An identical assignment made elsewhere (another name) is adopted, not duplicated, and is
// not marked as created, so it is never deleted by this provider.
func TestEnsureNetworkContributorAdoptsIdentical(t *testing.T) {
	w := napWorld(t, armfake.NAP{})
	existing := w.AddAssignment(napSubnet, "c0ffee00-0000-4000-8000-000000000001", napPrincipal, networkContributor)
	ra, err := roleClient(t, w).EnsureNetworkContributor(context.Background(), napSubnet, napPrincipal)
	if err != nil {
		t.Fatal(err)
	}
	if ra.ID != existing || ra.Created {
		t.Fatalf("grant = %+v, want the existing %s adopted", ra, existing)
	}
	if n := w.Count("RoleAssignmentsClient.Create", ""); n != 0 {
		t.Fatalf("creates = %d", n)
	}
}

// Only an assignment at exactly the scope, of the same role, counts: one inherited from the
// VNet, or another role at the subnet, does not stop the narrow grant.
func TestEnsureNetworkContributorIgnoresNonIdentical(t *testing.T) {
	w := napWorld(t, armfake.NAP{})
	w.AddAssignment(napVNet, "c0ffee00-0000-4000-8000-000000000002", napPrincipal, networkContributor)
	w.AddAssignment(napSubnet, "c0ffee00-0000-4000-8000-000000000003", napPrincipal,
		"/subscriptions/"+napSub+"/providers/Microsoft.Authorization/roleDefinitions/acdd72a7-3385-48ef-bd42-f606fba81ae7")
	w.AddAssignment(napSubnet, "c0ffee00-0000-4000-8000-000000000004", "someone-else", networkContributor)
	ra, err := roleClient(t, w).EnsureNetworkContributor(context.Background(), napSubnet, napPrincipal)
	if err != nil {
		t.Fatal(err)
	}
	if !ra.Created || len(w.Assignments()) != 4 {
		t.Fatalf("grant = %+v, assignments = %d; want a new one", ra, len(w.Assignments()))
	}
}

func TestRoleAssignmentDeleteAndExists(t *testing.T) {
	w := napWorld(t, armfake.NAP{})
	rc := roleClient(t, w)
	ra, err := rc.EnsureNetworkContributor(context.Background(), napVNet, napPrincipal)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := rc.Exists(context.Background(), ra.ID); err != nil || !ok {
		t.Fatalf("exists = %v, %v", ok, err)
	}
	if err := rc.Delete(context.Background(), ra.ID); err != nil {
		t.Fatal(err)
	}
	if len(w.Assignments()) != 0 {
		t.Fatal("assignment still there")
	}
	if ok, err := rc.Exists(context.Background(), ra.ID); err != nil || ok {
		t.Fatalf("exists after delete = %v, %v", ok, err)
	}
	if err := rc.Delete(context.Background(), ra.ID); err != nil {
		t.Fatalf("deleting a deleted assignment: %v", err)
	}
	if err := rc.Delete(context.Background(), "/subscriptions/x/not-an-assignment"); err == nil {
		t.Fatal("a malformed ID was accepted")
	}
}

func TestParseNetworkScope(t *testing.T) {
	for _, ok := range []string{napVNet, napSubnet, strings.ToLower(napSubnet)} {
		if _, err := azure.ParseNetworkScope(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{
		"",
		"vnet-nodes",
		"/subscriptions/" + napSub + "/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks",
		"/subscriptions/" + napSub + "/resourceGroups/rg/providers/Microsoft.Storage/storageAccounts/sa",
		"/subscriptions/" + napSub + "/resourceGroups/rg",
	} {
		if _, err := azure.ParseNetworkScope(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

func TestScopeCovers(t *testing.T) {
	vnet := "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet"
	for _, tc := range []struct {
		scope, id string
		want      bool
	}{
		{vnet + "/subnets/a", vnet + "/subnets/a", true},
		{strings.ToUpper(vnet) + "/", vnet + "/subnets/a", true},
		{"/subscriptions/s", vnet + "/subnets/a", true},
		{vnet + "/subnets/a", vnet + "/subnets/ab", false},
		{vnet + "/subnets/b", vnet + "/subnets/a", false},
		{"", vnet, false},
	} {
		if got := azure.ScopeCovers(tc.scope, tc.id); got != tc.want {
			t.Errorf("ScopeCovers(%q, %q) = %v, want %v", tc.scope, tc.id, got, tc.want)
		}
	}
}
