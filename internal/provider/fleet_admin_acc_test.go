package provider_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/eksfake"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// mixedFleetConfig manages two NodePools in one AKS cluster, one of them with the cluster's
// admin credentials (cluster.use_admin_credentials = admin), and an EKS cluster's EC2NodeClass
// and NodePool, from one provider block.
func mixedFleetConfig(eksEndpoint string, admin bool) string {
	aks := func(label, name, extra string) string {
		return fmt.Sprintf(`
resource "karpenter_nodepool" %q {
  name    = %q
  cluster = { aks_cluster_id = %q%s }
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
}
`, label, name, clusterIDOf(aksName), extra)
	}
	return fmt.Sprintf(`
provider "karpenter" {
  aws = { endpoints = { eks = %q } }
}
`, eksEndpoint) +
		aks("entra", "mixed-entra", "") +
		aks("admin", "mixed-admin", fmt.Sprintf(", use_admin_credentials = %t", admin)) +
		eksObjects("eks", "mixed", "mixed-eks", fmt.Sprintf("{ eks_cluster_arn = %q }", eksfake.ARN("eu-west-1", "eks-mixed")))
}

// One configuration, three ways in: an AKS cluster through ARM with Entra ID, the same AKS
// cluster with its local admin credentials for the pool whose cluster.use_admin_credentials
// says so (the audit log names who wrote each pool), and an EKS cluster through EKS; turning
// the admin credentials off updates in place (same cluster, no replacement), and
// use_admin_credentials beside eks_cluster_arn fails validation on that attribute.
func TestAccFleetMixedAKSAndEKSWithAdminCredentials(t *testing.T) {
	bin := tfBinary(t)
	c := testenv.Get(t)
	clearConnectionEnv(t)
	f := eksfake.Start(t)
	f.Env(t)
	e := f.Cluster(t, "eks-mixed", "eu-west-1")
	admin, err := c.AddUser(testenv.User{Name: adminUser, Groups: []string{"system:masters"}})
	if err != nil {
		t.Fatal(err)
	}
	fa := newFakeAKS(entraKubeconfig(t, c), admin)
	d := newTFDir(t, bin).inProcess(fa.option())
	t.Cleanup(func() {
		d.write("main.tf", mixedFleetConfig(f.EKSEndpoint(), false))
		if out, errOut, code := d.run("destroy", "-auto-approve", "-input=false"); code != 0 {
			t.Errorf("destroy: exit %d\n%s\n%s", code, out, errOut)
		}
		objectsIn(t, e, "eks-mixed")
	})
	d.write("main.tf", mixedFleetConfig(f.EKSEndpoint(), true))
	d.must("init", "-input=false")
	d.must("apply", "-auto-approve", "-input=false")
	objectsIn(t, e, "eks-mixed", "mixed-eks")
	if err := writesBy(c, "mixed-entra", entraUser, "patch")(nil); err != nil {
		t.Error(err)
	}
	if err := writesBy(c, "mixed-admin", adminUser, "patch")(nil); err != nil {
		t.Error(err)
	}
	if got := d.planActions(); len(got) != 0 {
		t.Fatalf("second plan is not empty: %v", got)
	}
	d.write("main.tf", mixedFleetConfig(f.EKSEndpoint(), false))
	if got := d.planActions(); len(got) != 1 || got["karpenter_nodepool.admin"] != "update" {
		t.Errorf("plan after turning the admin credentials off = %v, want only karpenter_nodepool.admin updated in place", got)
	}
	d.must("apply", "-auto-approve", "-input=false", "plan.out")

	d.write("main.tf", mixedFleetConfig(f.EKSEndpoint(), false)+eksObjects("bad", "bad", "bad",
		fmt.Sprintf("{ eks_cluster_arn = %q, use_admin_credentials = true }", eksfake.ARN("eu-west-1", "eks-mixed"))))
	_, errOut, code := d.run("validate")
	if flat := strings.Join(strings.Fields(errOut), " "); code == 0 || !strings.Contains(flat, "Admin credentials of an EKS cluster") || !strings.Contains(flat, "use_admin_credentials selects an AKS cluster's local admin kubeconfig") {
		t.Errorf("validate with use_admin_credentials on an EKS cluster: exit %d, want the error on that attribute\n%s", code, errOut)
	}
	d.write("main.tf", mixedFleetConfig(f.EKSEndpoint(), false))
}
