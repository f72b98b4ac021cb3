package nodepool_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// The audit log counts requests (TestAccNodePoolsShareOneNodeClassReadPerRefresh).
func TestMain(m *testing.M) { testenv.MainWith(m, testenv.Options{Audit: true}) }

var gvr = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}

func config(kubeconfig, name string, weight int, extra string) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "karpenter_nodepool" "test" {
  name   = %q
  weight = %d
  template = {
    labels         = { tier = "general" }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] },
    ]
    expire_after = "720h"
    %s
  }
  limits = { cpu = "200", memory = "400Gi" }
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "1m"
    budgets              = [{ nodes = "10%%" }]
  }
}
`, name, weight, extra)
}

func live(t *testing.T, c *testenv.Cluster, name string) *unstructured.Unstructured {
	t.Helper()
	obj, err := c.Dynamic.Resource(gvr).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get NodePool %s: %v", name, err)
	}
	return obj
}

func checkLive(c *testenv.Cluster, name string, path []string, want any) resource.TestCheckFunc {
	return func(*terraform.State) error {
		obj, err := c.Dynamic.Resource(gvr).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		got, _, _ := unstructured.NestedFieldNoCopy(obj.Object, path...)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("live %v = %v, want %v", path, got, want)
		}
		return nil
	}
}

func checkGone(c *testenv.Cluster, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := c.Dynamic.Resource(gvr).Get(context.Background(), name, metav1.GetOptions{})
		if err == nil {
			return fmt.Errorf("NodePool %s still exists after destroy", name)
		}
		return nil
	}
}

// A NodePool's whole life through the real terraform binary and the real API server.
func TestAccNodePoolLifecycle(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-lifecycle"
	addr := "karpenter_nodepool.test"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{
				Config: config(c.KubeconfigPath, name, 10, ""),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "id", name),
					resource.TestCheckResourceAttr(addr, "template.requirements.#", "3"),
					resource.TestCheckResourceAttr(addr, "limits.memory", "400Gi"),
					checkLive(c, name, []string{"spec", "weight"}, int64(10)),
					checkLive(c, name, []string{"spec", "template", "metadata", "labels", "tier"}, "general"),
					checkLive(c, name, []string{"spec", "disruption", "consolidateAfter"}, "1m"),
				),
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{
				// In-place update.
				Config: config(c.KubeconfigPath, name, 20, `taints = [{ key = "dedicated", value = "batch", effect = "NoSchedule" }]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLive(c, name, []string{"spec", "weight"}, int64(20)),
					checkLive(c, name, []string{"spec", "template", "spec", "taints"}, []any{map[string]any{"key": "dedicated", "value": "batch", "effect": "NoSchedule"}}),
				),
			},
			{
				// Drift: a managed field edited outside Terraform is planned back and reverted.
				PreConfig: func() {
					obj := live(t, c, name)
					_ = unstructured.SetNestedField(obj.Object, int64(99), "spec", "weight")
					if _, err := c.Dynamic.Resource(gvr).Update(context.Background(), obj, metav1.UpdateOptions{}); err != nil {
						t.Fatalf("edit outside Terraform: %v", err)
					}
				},
				Config: config(c.KubeconfigPath, name, 20, `taints = [{ key = "dedicated", value = "batch", effect = "NoSchedule" }]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: checkLive(c, name, []string{"spec", "weight"}, int64(20)),
			},
			{
				// Removing an attribute removes the field this provider owned.
				Config: config(c.KubeconfigPath, name, 20, ""),
				Check:  checkLive(c, name, []string{"spec", "template", "spec", "taints"}, nil),
			},
			{
				// Deleted outside Terraform: planned for creation and recreated.
				PreConfig: func() {
					if err := c.Dynamic.Resource(gvr).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
						t.Fatalf("delete outside Terraform: %v", err)
					}
				},
				Config: config(c.KubeconfigPath, name, 20, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
				Check: checkLive(c, name, []string{"spec", "weight"}, int64(20)),
			},
			{
				// The configuration applied again: the plan is empty.
				Config: config(c.KubeconfigPath, name, 20, "") + "\n",
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// Defaults the API server applies are planned up front, so the first plan after apply is empty
// even for a minimal configuration.
func TestAccNodePoolMinimalHasEmptySecondPlan(t *testing.T) {
	c := testenv.Get(t)
	cfg := acctest.ProviderBlock(c.KubeconfigPath) + `
resource "karpenter_nodepool" "min" {
  name = "acc-minimal"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, "acc-minimal"),
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("karpenter_nodepool.min", "disruption.consolidation_policy", "WhenEmptyOrUnderutilized"),
				resource.TestCheckResourceAttr("karpenter_nodepool.min", "disruption.consolidate_after", "0s"),
				resource.TestCheckResourceAttr("karpenter_nodepool.min", "disruption.budgets.0.nodes", "10%"),
				resource.TestCheckResourceAttr("karpenter_nodepool.min", "template.expire_after", "720h"),
			),
		}},
	})
}

// Replacing on an immutable field rather than failing at apply: a pool cannot switch between
// dynamic and static (has(self.replicas) == has(oldSelf.replicas)). (The other immutable
// fields, node_class_ref's group and kind, can only be karpenter.azure.com/AKSNodeClass on AKS,
// which the plan-time checks enforce.)
func TestAccNodePoolImmutableFieldReplaces(t *testing.T) {
	c := testenv.Get(t)
	cfg := func(replicas string) string {
		return acctest.ProviderBlock(c.KubeconfigPath) + fmt.Sprintf(`
resource "karpenter_nodepool" "r" {
  name = "acc-replace"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
  disruption = { consolidate_after = "5m" }
  %s
}
`, replicas)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, "acc-replace"),
		Steps: []resource.TestStep{
			{Config: cfg("")},
			{
				Config: cfg("replicas = 1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("karpenter_nodepool.r", plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: checkLive(c, "acc-replace", []string{"spec", "replicas"}, 1),
			},
		},
	})
}

// An object the API server would reject fails at plan, offline, on the attribute concerned.
func TestAccNodePoolInvalidConfigFailsAtPlan(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"restricted requirement key": {
			body: `template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "karpenter.sh/nodepool", operator = "In", values = ["x"] }]
  }`,
			want: `(?s)Attribute template\.requirements\[0\]\.key:.*is\s+restricted`,
		},
		"unknown operator": {
			body: `template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "kubernetes.io/arch", operator = "Sometimes", values = ["amd64"] }]
  }`,
			want: `(?s)Attribute template\.requirements\[0\]\.operator:\s+Unsupported value: "Sometimes".*"In"`,
		},
		"In without values": {
			body: `template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In" }]
  }`,
			want: `(?s)Attribute template\.requirements:.*operator\s+'In'\s+must\s+have\s+a\s+value`,
		},
		"budget schedule without duration": {
			body: `template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
  disruption = { consolidate_after = "1m", budgets = [{ nodes = "1", schedule = "@daily" }] }`,
			want: `(?s)Attribute disruption\.budgets:.*'schedule'\s+must\s+be\s+set\s+with\s+'duration'`,
		},
		"bad limit quantity": {
			body: `template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
  limits = { cpu = "lots" }`,
			want: `(?s)Attribute limits\["cpu"\]:.*"lots":\s+a\s+quantity\s+is\s+a\s+number`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(),
				Steps: []resource.TestStep{{
					Config:      "resource \"karpenter_nodepool\" \"bad\" {\n  name = \"bad\"\n  " + tc.body + "\n}\n",
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

// Terraform plans again during apply only the resources that change. A pool updated, or a pool
// created, next to an AKSNodeClass that does not change must still get the analysis it was
// planned with (no "inconsistent final plan"), and the plan after each apply is empty.
func TestAccNodePoolNextToUnchangedNodeClass(t *testing.T) {
	c := testenv.Get(t)
	cfg := func(cpu string, second bool, classExtra ...string) string {
		disk := ""
		if len(classExtra) > 0 {
			disk = "\n  " + classExtra[0]
		}
		s := acctest.ProviderBlock(c.KubeconfigPath) + `
resource "karpenter_aksnodeclass" "nc" {
  name         = "acc-stable-class"
  image_family = "AzureLinux"` + disk + `
}

resource "karpenter_nodepool" "a" {
  name = "acc-stable-a"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.nc.name }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  limits     = { cpu = "` + cpu + `" }
  disruption = { consolidate_after = "1m" }
}
`
		if second {
			s += `
resource "karpenter_nodepool" "b" {
  name = "acc-stable-b"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.nc.name }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["E"] }]
  }
  limits     = { cpu = "50" }
  disruption = { consolidate_after = "1m" }
}
`
		}
		return s
	}
	const secure = "security = { encryption_at_host = true }"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, "acc-stable-a"),
		Steps: []resource.TestStep{
			{Config: cfg("100", false), Check: resource.TestCheckResourceAttr("karpenter_nodepool.a", "analysis.node_class", "AKSNodeClass acc-stable-class")},
			{Config: cfg("200", false), Check: resource.TestCheckResourceAttr("karpenter_nodepool.a", "analysis.node_class", "AKSNodeClass acc-stable-class")},
			{Config: cfg("200", true)},
			{
				// The class changes in a setting the analysis uses (sizes without encryption at host
				// drop out), the pools do not: their analysis follows in the same run.
				Config: cfg("200", true, secure),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("karpenter_nodepool.a", plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue("karpenter_nodepool.a", tfjsonpath.New("analysis").AtMapKey("node_class"), knownvalue.StringExact("AKSNodeClass acc-stable-class")),
					},
				},
			},
			{
				// Deleted outside Terraform: created again, next to the unchanged class.
				PreConfig: func() {
					if err := c.Dynamic.Resource(gvr).Delete(context.Background(), "acc-stable-b", metav1.DeleteOptions{}); err != nil {
						t.Fatalf("delete outside Terraform: %v", err)
					}
				},
				Config: cfg("200", true, secure),
				Check:  resource.TestCheckResourceAttr("karpenter_nodepool.b", "analysis.node_class", "AKSNodeClass acc-stable-class"),
			},
		},
	})
}
