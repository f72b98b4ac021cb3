package ec2nodeclass_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// gettingStarted is Karpenter's getting-started NodePool and EC2NodeClass for EKS as typed
// resources, the pool referencing the class by attribute (so Terraform plans the class first).
func gettingStarted(class, pool string) string {
	return fmt.Sprintf(`
resource "karpenter_ec2nodeclass" "default" {
  name                          = %q
  role                          = "KarpenterNodeRole-acc"
  ami_selector_terms            = [{ alias = "al2023@v20240625" }]
  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
}

resource "karpenter_nodepool" "default" {
  name = %q
  template = {
    node_class_ref = { group = "karpenter.k8s.aws", kind = "EC2NodeClass", name = karpenter_ec2nodeclass.default.name }
    expire_after   = "720h"
    requirements = [
      { key = "kubernetes.io/arch", operator = "In", values = ["amd64"] },
      { key = "kubernetes.io/os", operator = "In", values = ["linux"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
      { key = "karpenter.k8s.aws/instance-category", operator = "In", values = ["c", "m", "r"] },
      { key = "karpenter.k8s.aws/instance-generation", operator = "Gt", values = ["2"] },
    ]
  }
  limits     = { cpu = "1000" }
  disruption = { consolidation_policy = "WhenEmptyOrUnderutilized", consolidate_after = "1m" }
}
`, class, pool)
}

// A NodePool that references a karpenter_ec2nodeclass applies against the local API server
// and plans clean twice; the pool's node_class_ref is the class's name.
func TestAccEC2NodeClassReferencedByNodePool(t *testing.T) {
	c := testenv.Get(t)
	class, pool := "acc-ec2-ref", "acc-ec2-ref-pool"
	cfg := acctest.ProviderBlock(c.KubeconfigPath) + gettingStarted(class, pool)
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(checkGone(c, gvr, class), func(*terraform.State) error {
			if _, err := c.Dynamic.Resource(nodePools).Get(context.Background(), pool, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				return fmt.Errorf("NodePool %s not deleted: %v", pool, err)
			}
			return nil
		}),
		Steps: []resource.TestStep{
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair("karpenter_nodepool.default", "template.node_class_ref.name", "karpenter_ec2nodeclass.default", "name"),
					checkLive(c, nodePools, pool, []string{"spec", "template", "spec", "nodeClassRef"},
						map[string]any{"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": class}),
					checkLive(c, gvr, class, []string{"spec", "role"}, "KarpenterNodeRole-acc"),
				),
			},
			{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: empty, PostApplyPostRefresh: empty}},
			{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: empty}},
		},
	})
}
