package aksnodeclass_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/runningnodes"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// impactConfig is a node class of the image family given and a pool on it, under a provider
// with the checks block given.
func impactConfig(kubeconfig, checks, class, pool, family string) string {
	return fmt.Sprintf(`provider "karpenter" {
  kubernetes = { config_path = %q }
  %s
}

resource "karpenter_aksnodeclass" "class" {
  name         = %q
  image_family = %q
}

resource "karpenter_nodepool" "pool" {
  name = %q
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.class.name }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  limits     = { cpu = "200", memory = "400Gi" }
  disruption = { consolidate_after = "1m", budgets = [{ nodes = "10%%" }] }
}
`, kubeconfig, checks, class, family, pool)
}

// launchedOn puts n running nodes of the pool on the node class.
func launchedOn(t *testing.T, c *testenv.Cluster, class, pool string, n int) {
	runningnodes.Launch(t, c.Dynamic, runningnodes.Claims{
		Pool: pool, Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: class, InstanceType: "Standard_D4s_v5",
		Labels: map[string]string{"karpenter.azure.com/sku-family": "D"},
	}, n)
}

// Issue 29 item 3: an image family change drifts the nodes launched from the class (the
// class hash), reported on the attribute with the pool's pace; checks.cluster_impact = false
// turns it off. Strict mode makes the warning an error, so the plan's output can be matched.
func TestAccAKSNodeClassPlanWarnsOfDrift(t *testing.T) {
	c := testenv.Get(t)
	class, pool := "acc-nc-impact", "acc-nc-impact-pool"
	// KRP119: the limits let one round open few NodeClaims, beside the point here.
	strict := `checks = { strict = true, suppress = ["KRP119"] }`
	want := runningnodes.DriftWarning("image_family", "this change drifts 2 of 2 nodes of NodePool acc-nc-impact-pool; budgets allow 1 at a time: about 2 replacement rounds")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, class),
		Steps: []resource.TestStep{
			{Config: impactConfig(c.KubeconfigPath, "", class, pool, "AzureLinux")},
			{
				PreConfig: func() { launchedOn(t, c, class, pool, 2) },
				Config:    impactConfig(c.KubeconfigPath, strict, class, pool, "Ubuntu2204"), PlanOnly: true, ExpectNonEmptyPlan: true,
				ExpectError: want,
			},
			{
				Config:   impactConfig(c.KubeconfigPath, `checks = { strict = true, suppress = ["KRP119"], cluster_impact = false }`, class, pool, "Ubuntu2204"),
				PlanOnly: true, ExpectNonEmptyPlan: true,
			},
		},
	})
}
