package nodepool_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// literalRefConfig is a node class and a pool that names it by a literal string, as
// `terraform plan -generate-config-out` and the YAML migration write it: Terraform sees no
// dependency between them and plans them in any order, in both of its walks.
// An empty pool name leaves the pool out.
func literalRefConfig(kubeconfig, class, pool, team, cpu string) string {
	classCfg := acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "karpenter_aksnodeclass" "nc" {
  name         = %q
  image_family = "AzureLinux"
  tags         = { team = %q }
}
`, class, team)
	if pool == "" {
		return classCfg
	}
	return classCfg + fmt.Sprintf(`
resource "karpenter_nodepool" "p" {
  name = %q
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = %q }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  limits     = { cpu = %q }
  disruption = { consolidate_after = "1m" }
}
`, pool, class, cpu)
}

// Issue 13 item 1: a pool whose node_class_ref.name is a literal string, deleted outside
// Terraform next to its unchanged node class, is created again without "Provider produced
// inconsistent final plan" (the plan walk saw the pool's private state of before the delete
// and the node class's plan, the apply walk neither). Create, update, a node class change and
// the recreate each apply and leave an empty plan.
func TestAccNodePoolLiteralNodeClassRefIsConsistent(t *testing.T) {
	c := testenv.Get(t)
	class, pool := "acc-literal-class", "acc-literal-pool"
	addr := "karpenter_nodepool.p"
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, pool),
		Steps: []resource.TestStep{
			{
				// The class first. (Created in the same run under a literal name, Terraform may
				// plan the class before the pool in one walk and after it in the other; the
				// provider cannot tell that from a reference, see the analysis attribute's docs.)
				Config: literalRefConfig(c.KubeconfigPath, class, "", "a", ""),
			},
			{
				// Created next to the unchanged class.
				Config:           literalRefConfig(c.KubeconfigPath, class, pool, "a", "100"),
				ConfigPlanChecks: empty,
				Check:            resource.TestCheckResourceAttr(addr, "analysis.node_class", "AKSNodeClass "+class),
			},
			{
				// An update of the pool next to the unchanged class.
				Config:           literalRefConfig(c.KubeconfigPath, class, pool, "a", "200"),
				ConfigPlanChecks: empty,
				Check:            resource.TestCheckResourceAttr(addr, "analysis.node_class", "AKSNodeClass "+class),
			},
			{
				// The class changes, the pool does not. (Not in a setting the analysis uses: with a
				// literal name Terraform may plan the pool before the class, and the pool's analysis
				// then follows the class one run later; TestAccNodePoolNextToUnchangedNodeClass
				// changes one with a reference.)
				Config:           literalRefConfig(c.KubeconfigPath, class, pool, "b", "200"),
				ConfigPlanChecks: empty,
			},
			{
				// Deleted outside Terraform: created again next to the unchanged class.
				PreConfig: func() {
					if err := c.Dynamic.Resource(gvr).Delete(context.Background(), pool, metav1.DeleteOptions{}); err != nil {
						t.Fatalf("delete outside Terraform: %v", err)
					}
				},
				Config: literalRefConfig(c.KubeconfigPath, class, pool, "b", "200"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.TestCheckResourceAttr(addr, "analysis.node_class", "AKSNodeClass "+class),
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           pool,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
		},
	})
}

// A provider region known only after apply (here from a terraform_data whose input changes)
// makes an existing pool's analysis unknown in the plan: the plan walk cannot know the region
// the apply walk will check against. Before, the plan walk checked all regions and the apply
// walk the region, and Terraform failed with "inconsistent final plan" on analysis.scope.
func TestAccNodePoolAnalysisWithRegionKnownAfterApply(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-late-region"
	addr := "karpenter_nodepool.p"
	cfg := func(region string) string {
		return fmt.Sprintf(`
resource "terraform_data" "region" {
  input = %q
}

provider "karpenter" {
  region     = terraform_data.region.output
  kubernetes = { config_path = %q }
}

resource "karpenter_nodepool" "p" {
  name = %q
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  limits     = { cpu = "100" }
  disruption = { consolidate_after = "1m" }
}
`, region, c.KubeconfigPath, name)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{Config: cfg("westeurope"), Check: resource.TestCheckResourceAttr(addr, "analysis.scope", "westeurope")},
			{
				Config: cfg("northeurope"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, tfjsonpath.New("analysis"))},
				},
				Check: resource.TestCheckResourceAttr(addr, "analysis.scope", "northeurope"),
			},
		},
	})
}

// A largest_pod request known only after apply makes an existing pool's analysis unknown in
// the plan. Before, the plan walk analysed without the request and the apply walk with it, and
// Terraform failed with "inconsistent final plan" on the findings (KRP112, suppressed here so
// that the apply goes through).
func TestAccNodePoolAnalysisWithLargestPodKnownAfterApply(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-late-largest-pod"
	addr := "karpenter_nodepool.p"
	cfg := func(cpu string) string {
		return fmt.Sprintf(`
resource "terraform_data" "cpu" {
  input = %q
}

provider "karpenter" {
  region     = "westeurope"
  kubernetes = { config_path = %q }
}

resource "karpenter_nodepool" "p" {
  name = %q
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  limits     = { cpu = "100" }
  disruption = { consolidate_after = "1m" }
  checks     = { suppress = ["KRP112"], largest_pod = { cpu = terraform_data.cpu.output } }
}
`, cpu, c.KubeconfigPath, name)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{Config: cfg("1")},
			{
				Config: cfg("1000"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, tfjsonpath.New("analysis"))},
				},
				Check: resource.TestCheckTypeSetElemNestedAttrs(addr, "analysis.findings.*", map[string]string{"code": "KRP112"}),
			},
		},
	})
}
