package provider_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// Tokens of identities bound to the ClusterRole of the RBAC guide, and to it without patch.
const (
	rbacToken     = "rbac-exact-token"
	rbacGroup     = "terraform-karpenter"
	noPatchToken  = "rbac-no-patch-token"
	noPatchGroup  = "terraform-karpenter-no-patch"
	noCreateToken = "rbac-no-create-token"
	noCreateGroup = "terraform-karpenter-no-create"
)

// bindGuideRole creates the guide's ClusterRole (examples/rbac/clusterrole.yaml, which the
// guide shows) for rbacGroup, and copies without the patch verb for noPatchGroup and without
// create for noCreateGroup.
func bindGuideRole(t *testing.T, c *testenv.Cluster) {
	t.Helper()
	data, err := os.ReadFile("../../examples/rbac/clusterrole.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var role rbacv1.ClusterRole
	if err := yaml.UnmarshalStrict(data, &role); err != nil {
		t.Fatal(err)
	}
	without := func(verb string) *rbacv1.ClusterRole {
		r := role.DeepCopy()
		r.Name += "-no-" + verb
		for i := range r.Rules {
			r.Rules[i].Verbs = slices.DeleteFunc(r.Rules[i].Verbs, func(v string) bool { return v == verb })
		}
		return r
	}
	cs := kubernetes.NewForConfigOrDie(c.Config)
	ctx := context.Background()
	for r, group := range map[*rbacv1.ClusterRole]string{&role: rbacGroup, without("patch"): noPatchGroup, without("create"): noCreateGroup} {
		if _, err := cs.RbacV1().ClusterRoles().Create(ctx, r, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		b := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: r.Name},
			RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: r.Name},
			Subjects: []rbacv1.Subject{{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: group}}}
		if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, b, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

func tokenConfig(c *testenv.Cluster, token, prefix string, weight int) string {
	return fmt.Sprintf(`
provider "karpenter" {
  kubernetes = {
    host                   = %q
    cluster_ca_certificate = %q
    token                  = %q
  }
}

resource "karpenter_aksnodeclass" "nc" {
  name = "%[4]s-nc"
}

resource "karpenter_nodepool" "np" {
  name   = "%[4]s-np"
  weight = %[5]d
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.nc.name }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
}
`, c.Config.Host, string(c.Config.CAData), token, prefix, weight)
}

// A token bound to exactly the guide's ClusterRole creates, reads, updates, imports and
// destroys both resources; the same role without patch fails with a diagnostic naming the
// verb and resource; a token the API server does not know points at the credentials.
func TestAccLeastPrivilegeRBAC(t *testing.T) {
	c := testenv.Get(t)
	bindGuideRole(t, c)

	t.Run("exact-role", func(t *testing.T) {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.Factories(),
			Steps: []resource.TestStep{
				{Config: tokenConfig(c, rbacToken, "rbac", 10)},
				{Config: tokenConfig(c, rbacToken, "rbac", 20),
					Check: resource.TestCheckResourceAttr("karpenter_nodepool.np", "weight", "20")},
				{Config: tokenConfig(c, rbacToken, "rbac", 20), ResourceName: "karpenter_nodepool.np", ImportState: true, ImportStateId: "rbac-np",
					ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts", "take_ownership_from", "analysis"}},
				{Config: tokenConfig(c, rbacToken, "rbac", 20), ResourceName: "karpenter_aksnodeclass.nc", ImportState: true, ImportStateId: "rbac-nc",
					ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts", "take_ownership_from", "analysis"}},
			},
		})
	})

	t.Run("without-patch", func(t *testing.T) {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.Factories(),
			Steps: []resource.TestStep{{
				Config:      tokenConfig(c, noPatchToken, "nopatch", 10),
				ExpectError: regexp.MustCompile(`Not authorized to patch (nodepools\.karpenter\.sh|aksnodeclasses\.karpenter\.azure\.com)(.|\n)*verb "patch"`),
			}},
		})
	})

	t.Run("without-create", func(t *testing.T) {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.Factories(),
			Steps: []resource.TestStep{{
				Config:      tokenConfig(c, noCreateToken, "nocreate", 10),
				ExpectError: regexp.MustCompile(`Not authorized to create (nodepools\.karpenter\.sh|aksnodeclasses\.karpenter\.azure\.com)(.|\n)*verb "create"`),
			}},
		})
	})

	t.Run("unknown-token", func(t *testing.T) {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.Factories(),
			Steps: []resource.TestStep{{
				Config:      tokenConfig(c, "not-a-token-of-this-cluster", "badtoken", 10),
				ExpectError: regexp.MustCompile(`Kubernetes API server did not accept the credentials(.|\n)*401 Unauthorized`),
			}},
		})
	})
}
