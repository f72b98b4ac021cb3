package nodepool_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

var aksNodeClasses = schema.GroupVersionResource{Group: "karpenter.azure.com", Version: "v1beta1", Resource: "aksnodeclasses"}

// knownPool is an on-demand pool of family D (KRP117 notes what spot would save) on the node
// class nameExpr names: a reference or a quoted literal. replicas makes it a static pool.
func knownPool(kubeconfig, classes, pool, nameExpr, replicas string) string {
	static, limits := "", `cpu = "100"`
	if replicas != "" {
		// A static pool is limited by its node count alone.
		static, limits = "\n  replicas = "+replicas, `nodes = "4"`
	}
	return fmt.Sprintf(`
provider "karpenter" {
  region     = %q
  kubernetes = { config_path = %q }
}
%s
resource "karpenter_nodepool" "p" {
  name = %q
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = %s }
    requirements = [
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
    ]
  }
  limits     = { %s }
  disruption = { consolidate_after = "1m" }%s
}
`, checkRegion, kubeconfig, classes, pool, nameExpr, limits, static)
}

// classBlock is a karpenter_aksnodeclass resource.
func classBlock(resourceName, name, extra string) string {
	return fmt.Sprintf(`
resource "karpenter_aksnodeclass" %q {
  name         = %q
  image_family = "AzureLinux"
  %s
}
`, resourceName, name, extra)
}

// analysisKnown checks that the plan knows the pool's analysis, from the node class named,
// with a finding of code among its findings (KRP117 when none is given).
func analysisKnown(addr, nodeClass string, code ...string) []plancheck.PlanCheck {
	want := "KRP117"
	if len(code) > 0 {
		want = code[0]
	}
	at := func(k string) tfjsonpath.Path { return tfjsonpath.New("analysis").AtMapKey(k) }
	return []plancheck.PlanCheck{
		plancheck.ExpectKnownValue(addr, at("node_class"), knownvalue.StringExact(nodeClass)),
		plancheck.ExpectKnownValue(addr, at("scope"), knownvalue.StringExact(checkRegion)),
		plancheck.ExpectKnownValue(addr, at("cheapest_capacity_type"), knownvalue.StringExact("on-demand")),
		plannedFinding{addr: addr, code: want},
	}
}

// plannedFinding checks that the planned analysis of addr lists a finding of code.
type plannedFinding struct{ addr, code string }

func (p plannedFinding) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != p.addr {
			continue
		}
		after, _ := rc.Change.After.(map[string]any)
		a, _ := after["analysis"].(map[string]any)
		list, _ := a["findings"].([]any)
		for _, f := range list {
			if m, _ := f.(map[string]any); m["code"] == p.code {
				return
			}
		}
		resp.Error = fmt.Errorf("%s: the planned analysis lists no %s (findings %v)", p.addr, p.code, a["findings"])
		return
	}
	resp.Error = fmt.Errorf("%s: not in the plan", p.addr)
}

// Issue 31 item 2: a new pool on a node class it references through an attribute has its
// analysis in the plan, KRP117 included, whether the class is created in the same run, changed,
// or unchanged. Terraform plans the class before the pool in both of its walks (or, unchanged,
// not at all in the apply walk, where the pool reads it from the cluster). A node_class_ref
// change, a replace, a recreate after a delete outside Terraform and an import all apply
// without "Provider produced inconsistent result", and the plan after each apply is empty.
func TestAccNodePoolAnalysisKnownAtPlanThroughReference(t *testing.T) {
	c := testenv.Get(t)
	pool, addr := "acc-known-ref", "karpenter_nodepool.p"
	one, two := classBlock("one", "acc-known-one", ""), classBlock("two", "acc-known-two", "security = { encryption_at_host = true }")
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, pool),
		Steps: []resource.TestStep{
			{
				// Created with its class.
				Config: knownPool(c.KubeconfigPath, one, pool, "karpenter_aksnodeclass.one.name", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             append(analysisKnown(addr, "AKSNodeClass acc-known-one"), plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)),
					PostApplyPostRefresh: empty,
				},
				Check: resource.TestCheckResourceAttr(addr, "analysis.node_class", "AKSNodeClass acc-known-one"),
			},
			{
				// Moved to a class created in the same run.
				Config: knownPool(c.KubeconfigPath, one+two, pool, "karpenter_aksnodeclass.two.name", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             append(analysisKnown(addr, "AKSNodeClass acc-known-two"), plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)),
					PostApplyPostRefresh: empty,
				},
			},
			{
				// Deleted outside Terraform: created again next to its unchanged class.
				PreConfig: func() {
					if err := c.Dynamic.Resource(gvr).Delete(context.Background(), pool, metav1.DeleteOptions{}); err != nil {
						t.Fatalf("delete outside Terraform: %v", err)
					}
				},
				Config: knownPool(c.KubeconfigPath, one+two, pool, "karpenter_aksnodeclass.two.name", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             append(analysisKnown(addr, "AKSNodeClass acc-known-two"), plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)),
					PostApplyPostRefresh: empty,
				},
			},
			{
				// Replaced (a static pool cannot become dynamic), next to the unchanged class.
				Config: knownPool(c.KubeconfigPath, one+two, pool, "karpenter_aksnodeclass.two.name", "2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					// KRP408: static capacity needs a feature gate the pinned target has off.
					PreApply: append(analysisKnown(addr, "AKSNodeClass acc-known-two", "KRP408"),
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)),
					PostApplyPostRefresh: empty,
				},
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

// createNodeClass creates an AKSNodeClass outside Terraform, as AKS creates NAP's `default`
// or another team applies theirs, and deletes it when the test ends.
func createNodeClass(t *testing.T, c *testenv.Cluster, name string, spec map[string]any) {
	t.Helper()
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.azure.com/v1beta1", "kind": "AKSNodeClass",
		"metadata": map[string]any{"name": name}, "spec": spec,
	}}
	if _, err := c.Dynamic.Resource(aksNodeClasses).Create(context.Background(), obj, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create AKSNodeClass %s: %v", name, err)
	}
	t.Cleanup(func() {
		_ = c.Dynamic.Resource(aksNodeClasses).Delete(context.Background(), name, metav1.DeleteOptions{})
	})
}

// Issue 31 item 2: a new pool on NAP's `default` class, or on a class no resource of the
// configuration plans, has its analysis in the plan: both of Terraform's walks read the
// class from the cluster. The plan after the apply is empty. The class the plan read exists,
// so KRP201 does not warn of it: in strict mode, where the warning would fail the plan, the
// plan goes through (with KRP119, the pool's limits warning, suppressed).
func TestAccNodePoolAnalysisKnownAtPlanForClassOutsideConfiguration(t *testing.T) {
	c := testenv.Get(t)
	// NAP's default class, as AKS creates it.
	createNodeClass(t, c, "default", map[string]any{"imageFamily": "Ubuntu2204"})
	createNodeClass(t, c, "acc-team-class", map[string]any{"imageFamily": "AzureLinux", "osDiskSizeGB": int64(64)})
	for _, class := range []string{"default", "acc-team-class"} {
		t.Run(class, func(t *testing.T) {
			pool, addr := "acc-known-"+class, "karpenter_nodepool.p"
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(),
				CheckDestroy:             checkGone(c, pool),
				Steps: []resource.TestStep{{
					Config:             strings.Replace(knownPool(c.KubeconfigPath, "", pool, fmt.Sprintf("%q", class), ""), "\n  region ", "\n  checks = { strict = true, suppress = [\"KRP119\"] }\n  region ", 1),
					PlanOnly:           true,
					ExpectNonEmptyPlan: true,
				}, {
					Config: knownPool(c.KubeconfigPath, "", pool, fmt.Sprintf("%q", class), ""),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply:             append(analysisKnown(addr, "AKSNodeClass "+class), plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)),
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				}},
			})
		})
	}
}

// Issue 31 item 2: where Terraform's two walks can see the node class differently, a new
// pool's analysis stays unknown at plan and is filled in after apply: a class whose settings
// are known only after apply, and a class that does not exist (this run may create it). The
// apply goes through, and the plan after it is empty.
func TestAccNodePoolAnalysisUnknownAtPlan(t *testing.T) {
	c := testenv.Get(t)
	lateFamily := `
resource "terraform_data" "family" {
  input = "AzureLinux"
}
` + `
resource "karpenter_aksnodeclass" "late" {
  name         = "acc-unknown-late"
  image_family = terraform_data.family.output
}
`
	for name, tc := range map[string]struct{ classes, nameExpr, nodeClass string }{
		"settings known after apply": {lateFamily, "karpenter_aksnodeclass.late.name", "AKSNodeClass acc-unknown-late"},
		"class does not exist":       {"", `"acc-unknown-absent"`, "defaults assumed (AKSNodeClass acc-unknown-absent does not exist)"},
	} {
		t.Run(name, func(t *testing.T) {
			pool, addr := "acc-unknown-pool", "karpenter_nodepool.p"
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(),
				CheckDestroy:             checkGone(c, pool),
				Steps: []resource.TestStep{{
					Config: knownPool(c.KubeconfigPath, tc.classes, pool, tc.nameExpr, ""),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, tfjsonpath.New("analysis"))},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
					Check: resource.TestCheckResourceAttr(addr, "analysis.node_class", tc.nodeClass),
				}},
			})
		})
	}
}
