package aksnodeclass_test

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

var (
	gvr       = schema.GroupVersionResource{Group: "karpenter.azure.com", Version: "v1beta1", Resource: "aksnodeclasses"}
	nodePools = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}
)

const subnet = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-nodes/providers/Microsoft.Network/virtualNetworks/vnet-nodes/subnets/nodes"

// config is a node class with the settings people set most: image, disk, subnet, pods,
// FIPS, host encryption, tags and kubelet.
func config(kubeconfig, name string, disk int, tags, extra string) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "karpenter_aksnodeclass" "test" {
  name            = %q
  image_family    = "AzureLinux"
  os_disk_size_gb = %d
  vnet_subnet_id  = %q
  fips_mode       = "FIPS"
  tags            = %s
  security        = { encryption_at_host = true }
  kubelet = {
    cpu_manager_policy              = "static"
    image_gc_high_threshold_percent = 85
    image_gc_low_threshold_percent  = 75
    container_log_max_files         = 10
    allowed_unsafe_sysctls          = ["kernel.msg*", "net.ipv4.route.min_pmtu"]
    pod_pids_limit                  = 4096
  }
  %s
}
`, name, disk, subnet, tags, extra)
}

func get(c *testenv.Cluster, res schema.GroupVersionResource, name string) (*unstructured.Unstructured, error) {
	return c.Dynamic.Resource(res).Get(context.Background(), name, metav1.GetOptions{})
}

func live(t *testing.T, c *testenv.Cluster, name string) *unstructured.Unstructured {
	t.Helper()
	obj, err := get(c, gvr, name)
	if err != nil {
		t.Fatalf("get AKSNodeClass %s: %v", name, err)
	}
	return obj
}

// checkLive compares a field of the live object; want nil means the field is absent.
func checkLive(c *testenv.Cluster, res schema.GroupVersionResource, name string, path []string, want any) resource.TestCheckFunc {
	return func(*terraform.State) error {
		obj, err := get(c, res, name)
		if err != nil {
			return err
		}
		got, found, _ := unstructured.NestedFieldNoCopy(obj.Object, path...)
		if want == nil {
			if found {
				return fmt.Errorf("live %s %v = %v, want it absent", name, path, got)
			}
			return nil
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("live %s %v = %v (%T), want %v (%T)", name, path, got, got, want, want)
		}
		return nil
	}
}

// checkGone asserts that none of the named node classes exists any more.
func checkGone(c *testenv.Cluster, names ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, name := range names {
			_, err := get(c, gvr, name)
			if err == nil {
				return fmt.Errorf("AKSNodeClass %s still exists", name)
			}
			if !apierrors.IsNotFound(err) {
				return err
			}
		}
		return nil
	}
}

// checkAppliedByProvider asserts that the provider's field manager owns the object's spec
// through server-side apply.
func checkAppliedByProvider(c *testenv.Cluster, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		obj, err := get(c, gvr, name)
		if err != nil {
			return err
		}
		for _, mf := range obj.GetManagedFields() {
			if mf.Manager == kube.FieldManager && mf.Operation == metav1.ManagedFieldsOperationApply {
				if mf.FieldsV1 != nil && strings.Contains(string(mf.FieldsV1.Raw), `"f:imageFamily"`) {
					return nil
				}
			}
		}
		return fmt.Errorf("no server-side apply entry of %s owning spec.imageFamily in %+v", kube.FieldManager, obj.GetManagedFields())
	}
}

// An AKSNodeClass's whole life through the real terraform binary and the real API server.
func TestAccAKSNodeClassLifecycle(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-nc-lifecycle"
	renamed := name + "-renamed"
	addr := "karpenter_aksnodeclass.test"
	tags := `{ team = "platform", "cost-center" = "1234" }`
	updatedTags := `{ team = "data", "cost-center" = "1234", env = "prod" }`
	updateExtra := `max_pods = 110
  gpu      = { mode = "None" }
  artifact_streaming = { enabled = true }
  linux_os_config = {
    transparent_huge_page_enabled = "madvise"
    sysctls = { vm_max_map_count = 262144, net_core_somaxconn = 16384 }
  }`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name, renamed),
		Steps: []resource.TestStep{
			{
				Config: config(c.KubeconfigPath, name, 128, tags, ""),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "id", name),
					resource.TestCheckResourceAttr(addr, "image_family", "AzureLinux"),
					resource.TestCheckResourceAttr(addr, "tags.%", "2"),
					resource.TestCheckResourceAttr(addr, "kubelet.allowed_unsafe_sysctls.#", "2"),
					// Kubelet defaults of the CRD, planned up front and stored.
					resource.TestCheckResourceAttr(addr, "kubelet.container_log_max_size", "50Mi"),
					resource.TestCheckResourceAttr(addr, "kubelet.cpu_cfs_quota", "true"),
					resource.TestCheckResourceAttr(addr, "kubelet.cpu_cfs_quota_period", "100ms"),
					resource.TestCheckResourceAttr(addr, "kubelet.topology_manager_policy", "none"),
					resource.TestCheckNoResourceAttr(addr, "max_pods"),
					checkLive(c, gvr, name, []string{"spec", "imageFamily"}, "AzureLinux"),
					checkLive(c, gvr, name, []string{"spec", "osDiskSizeGB"}, int64(128)),
					checkLive(c, gvr, name, []string{"spec", "vnetSubnetID"}, subnet),
					checkLive(c, gvr, name, []string{"spec", "fipsMode"}, "FIPS"),
					checkLive(c, gvr, name, []string{"spec", "security", "encryptionAtHost"}, true),
					checkLive(c, gvr, name, []string{"spec", "tags"}, map[string]any{"team": "platform", "cost-center": "1234"}),
					checkLive(c, gvr, name, []string{"spec", "kubelet", "imageGCHighThresholdPercent"}, int64(85)),
					checkLive(c, gvr, name, []string{"spec", "kubelet", "imageGCLowThresholdPercent"}, int64(75)),
					checkLive(c, gvr, name, []string{"spec", "kubelet", "cpuManagerPolicy"}, "static"),
					checkLive(c, gvr, name, []string{"spec", "kubelet", "podPidsLimit"}, int64(4096)),
					checkLive(c, gvr, name, []string{"spec", "kubelet", "allowedUnsafeSysctls"}, []any{"kernel.msg*", "net.ipv4.route.min_pmtu"}),
					checkLive(c, gvr, name, []string{"spec", "maxPods"}, nil),
					checkAppliedByProvider(c, name),
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
				// In-place update: changed values and newly set nested settings.
				Config: config(c.KubeconfigPath, name, 256, updatedTags, updateExtra),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "gpu.mode", "None"),
					checkLive(c, gvr, name, []string{"spec", "osDiskSizeGB"}, int64(256)),
					checkLive(c, gvr, name, []string{"spec", "maxPods"}, int64(110)),
					checkLive(c, gvr, name, []string{"spec", "tags"}, map[string]any{"team": "data", "cost-center": "1234", "env": "prod"}),
					checkLive(c, gvr, name, []string{"spec", "gpu", "mode"}, "None"),
					checkLive(c, gvr, name, []string{"spec", "artifactStreaming", "enabled"}, true),
					checkLive(c, gvr, name, []string{"spec", "linuxOSConfig", "sysctls", "vmMaxMapCount"}, int64(262144)),
					checkLive(c, gvr, name, []string{"spec", "linuxOSConfig", "transparentHugePageEnabled"}, "madvise"),
				),
			},
			{
				// Drift: managed fields edited outside Terraform are planned back and reverted.
				PreConfig: func() {
					obj := live(t, c, name)
					_ = unstructured.SetNestedField(obj.Object, int64(512), "spec", "osDiskSizeGB")
					_ = unstructured.SetNestedField(obj.Object, "someone-else", "spec", "tags", "team")
					_ = unstructured.SetNestedField(obj.Object, int64(1), "spec", "kubelet", "podPidsLimit")
					if _, err := c.Dynamic.Resource(gvr).Update(context.Background(), obj, metav1.UpdateOptions{}); err != nil {
						t.Fatalf("edit outside Terraform: %v", err)
					}
				},
				Config: config(c.KubeconfigPath, name, 256, updatedTags, updateExtra),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLive(c, gvr, name, []string{"spec", "osDiskSizeGB"}, int64(256)),
					checkLive(c, gvr, name, []string{"spec", "tags", "team"}, "data"),
					checkLive(c, gvr, name, []string{"spec", "kubelet", "podPidsLimit"}, int64(4096)),
				),
			},
			{
				// A field Terraform does not manage, set by someone else, is no drift: the plan
				// is empty and the field stays.
				PreConfig: func() {
					obj := live(t, c, name)
					_ = unstructured.SetNestedField(obj.Object, "defer", "spec", "linuxOSConfig", "transparentHugePageDefrag")
					if _, err := c.Dynamic.Resource(gvr).Update(context.Background(), obj, metav1.UpdateOptions{FieldManager: "someone-else"}); err != nil {
						t.Fatalf("edit outside Terraform: %v", err)
					}
				},
				Config: config(c.KubeconfigPath, name, 256, updatedTags, updateExtra),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkLive(c, gvr, name, []string{"spec", "linuxOSConfig", "transparentHugePageDefrag"}, "defer"),
			},
			{
				// Removing attributes removes the fields this provider owned, and only those.
				Config: config(c.KubeconfigPath, name, 256, updatedTags, `linux_os_config = { transparent_huge_page_enabled = "madvise" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLive(c, gvr, name, []string{"spec", "maxPods"}, nil),
					checkLive(c, gvr, name, []string{"spec", "gpu"}, nil),
					checkLive(c, gvr, name, []string{"spec", "linuxOSConfig", "sysctls"}, nil),
					checkLive(c, gvr, name, []string{"spec", "linuxOSConfig", "transparentHugePageDefrag"}, "defer"),
				),
			},
			{
				// Deleted outside Terraform: planned for creation and created again.
				PreConfig: func() {
					if err := c.Dynamic.Resource(gvr).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
						t.Fatalf("delete outside Terraform: %v", err)
					}
				},
				Config: config(c.KubeconfigPath, name, 256, updatedTags, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
				},
				Check: checkLive(c, gvr, name, []string{"spec", "osDiskSizeGB"}, int64(256)),
			},
			{
				// The configuration applied again: the plan is empty.
				Config: config(c.KubeconfigPath, name, 256, updatedTags, "") + "\n",
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// The name is the object's identity: changing it replaces the node class.
				Config: config(c.KubeconfigPath, renamed, 256, updatedTags, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "id", renamed),
					checkGone(c, name),
					checkLive(c, gvr, renamed, []string{"spec", "osDiskSizeGB"}, int64(256)),
				),
			},
		},
	})
}

// The defaults the API server applies are planned up front, so that the plan after apply is
// empty even for the smallest configuration, and also for nested objects left empty.
func TestAccAKSNodeClassMinimalHasEmptySecondPlan(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-nc-minimal"
	addr := "karpenter_aksnodeclass.min"
	cfg := func(body string) string {
		return acctest.ProviderBlock(c.KubeconfigPath) + fmt.Sprintf("resource \"karpenter_aksnodeclass\" \"min\" {\n  name = %q\n%s}\n", name, body)
	}
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{
				Config:           cfg(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "image_family", "Ubuntu"),
					resource.TestCheckResourceAttr(addr, "os_disk_size_gb", "128"),
					resource.TestCheckNoResourceAttr(addr, "kubelet.%"),
					resource.TestCheckNoResourceAttr(addr, "fips_mode"),
					checkLive(c, gvr, name, []string{"spec", "imageFamily"}, "Ubuntu"),
					checkLive(c, gvr, name, []string{"spec", "osDiskSizeGB"}, int64(128)),
					checkLive(c, gvr, name, []string{"spec", "kubelet"}, nil),
				),
			},
			{
				Config: cfg("  kubelet = {}\n  gpu = {}\n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: empty,
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "kubelet.container_log_max_files", "5"),
					resource.TestCheckResourceAttr(addr, "kubelet.container_log_max_size", "50Mi"),
					resource.TestCheckResourceAttr(addr, "kubelet.cpu_manager_policy", "none"),
					resource.TestCheckResourceAttr(addr, "gpu.mode", "Driver"),
					checkLive(c, gvr, name, []string{"spec", "kubelet", "containerLogMaxFiles"}, int64(5)),
					checkLive(c, gvr, name, []string{"spec", "gpu", "mode"}, "Driver"),
				),
			},
		},
	})
}

// expectKept fails when the plan destroys or replaces the resource (an in-place update is
// fine: the NodePool's computed plan-time analysis changes when its node class leaves the
// configuration).
type expectKept string

func (e expectKept) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address == string(e) {
			if rc.Change.Actions.Delete() || rc.Change.Actions.Replace() || rc.Change.Actions.DestroyBeforeCreate() || rc.Change.Actions.CreateBeforeDestroy() {
				resp.Error = fmt.Errorf("%s is planned for %v, want it kept", e, rc.Change.Actions)
			}
			return
		}
	}
	resp.Error = fmt.Errorf("%s is not in the plan", e)
}

// A NodePool and the AKSNodeClass it references, in one configuration. Removing the node
// class while the pool still references it deletes it: the test cluster runs no Karpenter
// controller, so nothing puts a finalizer on it and the API server does not check references.
func TestAccAKSNodeClassReferencedByNodePool(t *testing.T) {
	c := testenv.Get(t)
	class, pool := "acc-nc-ref", "acc-nc-ref-pool"
	poolCfg := func(ref string) string {
		return fmt.Sprintf(`
resource "karpenter_nodepool" "pool" {
  name = %q
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = %s }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
}
`, pool, ref)
	}
	classCfg := fmt.Sprintf(`
resource "karpenter_aksnodeclass" "class" {
  name         = %q
  image_family = "AzureLinux"
}
`, class)
	provider := acctest.ProviderBlock(c.KubeconfigPath)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy: resource.ComposeAggregateTestCheckFunc(
			checkGone(c, class),
			func(*terraform.State) error {
				if _, err := get(c, nodePools, pool); !apierrors.IsNotFound(err) {
					return fmt.Errorf("NodePool %s not deleted: %v", pool, err)
				}
				return nil
			},
		),
		Steps: []resource.TestStep{
			{
				Config: provider + classCfg + poolCfg("karpenter_aksnodeclass.class.name"),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair("karpenter_nodepool.pool", "template.node_class_ref.name", "karpenter_aksnodeclass.class", "name"),
					checkLive(c, nodePools, pool, []string{"spec", "template", "spec", "nodeClassRef", "name"}, class),
					checkLive(c, gvr, class, []string{"spec", "imageFamily"}, "AzureLinux"),
				),
			},
			{
				// The node class leaves the configuration; the pool keeps referencing it by name.
				Config: provider + poolCfg(fmt.Sprintf("%q", class)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("karpenter_aksnodeclass.class", plancheck.ResourceActionDestroy),
						expectKept("karpenter_nodepool.pool"),
					},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkGone(c, class),
					checkLive(c, nodePools, pool, []string{"spec", "template", "spec", "nodeClassRef", "name"}, class),
				),
			},
		},
	})
}

// When something holds the node class (Karpenter's finalizer while NodeClaims launched from
// it exist), destroy waits up to timeouts.delete and then says what still holds it: the
// finalizers and the NodePools that reference it.
func TestAccAKSNodeClassDeleteTimeoutNamesWhatHoldsIt(t *testing.T) {
	c := testenv.Get(t)
	class, pool := "acc-nc-held", "acc-nc-held-pool"
	const finalizer = "karpenter-iac.test/hold"
	provider := acctest.ProviderBlock(c.KubeconfigPath)
	// The pool names the class through a reference while both are configured, so that the
	// pool is planned after the class (its plan-time analysis reads the planned class).
	poolCfg := func(ref string) string {
		return fmt.Sprintf(`
resource "karpenter_nodepool" "pool" {
  name = %q
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = %s }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
}
`, pool, ref)
	}
	classCfg := fmt.Sprintf(`
resource "karpenter_aksnodeclass" "class" {
  name     = %q
  timeouts = { delete = "2s" }
}
`, class)
	setFinalizers := func(f ...string) {
		obj := live(t, c, class)
		obj.SetFinalizers(f)
		if _, err := c.Dynamic.Resource(gvr).Update(context.Background(), obj, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("set finalizers %v: %v", f, err)
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, class),
		Steps: []resource.TestStep{
			{Config: provider + classCfg + poolCfg("karpenter_aksnodeclass.class.name")},
			{
				PreConfig:   func() { setFinalizers(finalizer) },
				Config:      provider + poolCfg(fmt.Sprintf("%q", class)),
				ExpectError: regexp.MustCompile(`(?s)Timed out after 2s waiting for AKSNodeClass\s+"acc-nc-held"\s+to\s+be\s+deleted.*karpenter-iac\.test/hold.*NodePools\s+that\s+reference\s+it:\s+acc-nc-held-pool\.`),
			},
			{
				// Released: the object, already marked for deletion, goes away; the next refresh
				// sees it gone and the plan has nothing left to do for it.
				PreConfig: func() { setFinalizers() },
				Config:    provider + poolCfg(fmt.Sprintf("%q", class)),
				Check:     checkGone(c, class),
			},
		},
	})
}

// Creating a node class whose name is taken fails with the way to adopt the existing one,
// and importing it adopts it (as for NAP's own "default" AKSNodeClass).
func TestAccAKSNodeClassAdoptExisting(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-nc-existing"
	existing := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.azure.com/v1beta1", "kind": "AKSNodeClass",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"imageFamily": "Ubuntu2204", "osDiskSizeGB": int64(64), "tags": map[string]any{"owner": "nap"}},
	}}
	if _, err := c.Dynamic.Resource(gvr).Create(context.Background(), existing, metav1.CreateOptions{FieldManager: "aks-node-provisioning"}); err != nil {
		t.Fatalf("create the existing node class: %v", err)
	}
	addr := "karpenter_aksnodeclass.adopted"
	cfg := acctest.ProviderBlock(c.KubeconfigPath) + fmt.Sprintf(`
resource "karpenter_aksnodeclass" "adopted" {
  name            = %q
  image_family    = "Ubuntu2204"
  os_disk_size_gb = 100
  tags            = { owner = "platform" }
}
`, name)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{
				Config:      cfg,
				ExpectError: regexp.MustCompile(`(?s)AKSNodeClass\s+"acc-nc-existing"\s+already\s+exists.*terraform\s+import\s+karpenter_aksnodeclass\.<name>\s+acc-nc-existing`),
			},
			{
				Config:             cfg,
				ResourceName:       addr,
				ImportState:        true,
				ImportStateId:      name,
				ImportStatePersist: true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 {
						return fmt.Errorf("imported %d instances", len(states))
					}
					a := states[0].Attributes
					for k, want := range map[string]string{"id": name, "image_family": "Ubuntu2204", "os_disk_size_gb": "64", "tags.owner": "nap"} {
						if a[k] != want {
							return fmt.Errorf("imported %s = %q, want %q", k, a[k], want)
						}
					}
					return nil
				},
			},
			{
				// Adopted: the configuration is applied over the existing object in place.
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLive(c, gvr, name, []string{"spec", "osDiskSizeGB"}, int64(100)),
					checkLive(c, gvr, name, []string{"spec", "tags"}, map[string]any{"owner": "platform"}),
				),
			},
		},
	})
}

// A configuration the API server would reject fails at plan, offline (no provider block, so
// no cluster), with the attribute it concerns and the API server's own message.
func TestAccAKSNodeClassInvalidConfigFailsAtPlan(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"tag key with a forbidden character": {
			body: `tags = { "team<1>" = "platform" }`,
			want: `(?s)Attribute\s+tags:.*tags\s+keys\s+must\s+not\s+contain\s+'<',\s+'>',\s+'%',\s+'&',\s+or\s+'\?'`,
		},
		"tag key with a backslash": {
			body: `tags = { "domain\\user" = "x" }`,
			want: `(?s)Attribute\s+tags:.*tags\s+keys\s+must\s+not\s+contain\s+'\\'`,
		},
		"tag value longer than 256 characters": {
			body: fmt.Sprintf(`tags = { team = %q }`, strings.Repeat("v", 257)),
			want: `(?s)Attribute\s+tags:.*tags\s+values\s+must\s+be\s+less\s+than\s+256\s+characters`,
		},
		// The rule sits on the spec, which is the resource itself: the error is the resource's.
		"FIPS with an image family that does not support it": {
			body: `image_family = "Ubuntu2204"
  fips_mode    = "FIPS"`,
			want: `(?s)FIPS\s+is\s+not\s+yet\s+supported\s+for\s+Ubuntu2204\s+or\s+Ubuntu2404.*would\s+reject\s+this\s+AKSNodeClass\s+at\s+spec\.`,
		},
		"kubelet image GC low threshold not below the high one": {
			body: `kubelet = {
    image_gc_high_threshold_percent = 80
    image_gc_low_threshold_percent  = 80
  }`,
			want: `(?s)Attribute\s+kubelet:.*imageGCHighThresholdPercent\s+must\s+be\s+greater\s+than\s+imageGCLowThresholdPercent`,
		},
		"kubelet image GC threshold above 100": {
			body: `kubelet = { image_gc_high_threshold_percent = 101 }`,
			want: `(?s)Attribute\s+kubelet\.image_gc_high_threshold_percent:.*should\s+be\s+less\s+than\s+or\s+equal\s+to\s+100`,
		},
		"vnet_subnet_id that is not a subnet ID": {
			body: `vnet_subnet_id = "/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet"`,
			want: `(?s)Attribute\s+vnet_subnet_id:.*should\s+match`,
		},
		"os_disk_size_gb below the minimum": {
			body: `os_disk_size_gb = 20`,
			want: `(?s)Attribute\s+os_disk_size_gb:.*should\s+be\s+greater\s+than\s+or\s+equal\s+to\s+30`,
		},
		"os_disk_size_gb above the maximum": {
			body: `os_disk_size_gb = 4096`,
			want: `(?s)Attribute\s+os_disk_size_gb:.*should\s+be\s+less\s+than\s+or\s+equal\s+to\s+2048`,
		},
		"max_pods below the minimum": {
			body: `max_pods = 5`,
			want: `(?s)Attribute\s+max_pods:.*should\s+be\s+greater\s+than\s+or\s+equal\s+to\s+10`,
		},
		"unknown image family": {
			body: `image_family = "Windows2022"`,
			want: `(?s)Attribute\s+image_family:\s+Unsupported\s+value:\s+"Windows2022".*"AzureLinux"`,
		},
		"swap file without failSwapOn false": {
			body: `linux_os_config = { swap_file_size = "2Gi" }`,
			want: `(?s)kubelet\.failSwapOn\s+must\s+be\s+set\s+to\s+false\s+when\s+linuxOSConfig\.swapFileSize\s+is\s+specified`,
		},
		"sysctl default above its maximum": {
			body: `linux_os_config = { sysctls = { net_core_rmem_default = 300000, net_core_rmem_max = 212992 } }`,
			want: `(?s)Attribute\s+linux_os_config\.sysctls:.*netCoreRmemDefault\s+must\s+be\s+<=\s+netCoreRmemMax`,
		},
		// Kubernetes 1.36 checks the int32 format; the API server names the field only in
		// its message, and the attribute is still found.
		"kubelet container_log_max_files beyond int32": {
			body: `kubelet = { container_log_max_files = 3000000000 }`,
			want: `(?s)Attribute\s+kubelet\.container_log_max_files:.*must\s+be\s+of\s+type\s+integer\s+with\s+format\s+int32`,
		},
		"local DNS without the cluster.local zone": {
			body: `local_dns = {
    mode = "Required"
    kube_dns_overrides = [{ zone = ".", forward_destination = "ClusterCoreDNS", forward_policy = "Sequential", max_concurrent = 1000,
      protocol = "PreferUDP", query_logging = "Error", serve_stale = "Immediate", cache_duration = "1h", serve_stale_duration = "1h" }]
    vnet_dns_overrides = [
      { zone = ".", forward_destination = "VnetDNS", forward_policy = "Sequential", max_concurrent = 1000,
        protocol = "PreferUDP", query_logging = "Error", serve_stale = "Immediate", cache_duration = "1h", serve_stale_duration = "1h" },
      { zone = "cluster.local", forward_destination = "ClusterCoreDNS", forward_policy = "Sequential", max_concurrent = 1000,
        protocol = "PreferUDP", query_logging = "Error", serve_stale = "Immediate", cache_duration = "1h", serve_stale_duration = "1h" },
    ]
  }`,
			want: `(?s)Attribute\s+local_dns\.kube_dns_overrides:.*must\s+contain\s+required\s+zones\s+'\.'\s+and\s+'cluster\.local'`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(),
				Steps: []resource.TestStep{{
					Config:      "resource \"karpenter_aksnodeclass\" \"bad\" {\n  name = \"bad\"\n  " + tc.body + "\n}\n",
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

// Values Terraform only knows at apply (here a subnet ID from another resource) are not
// judged at plan: no error for them, and the rest of the configuration is still checked.
func TestAccAKSNodeClassUnknownValuesAreNotJudgedAtPlan(t *testing.T) {
	cfg := func(disk int) string {
		return fmt.Sprintf(`
resource "terraform_data" "subnet" {
  input = %q
}

resource "karpenter_aksnodeclass" "late" {
  name            = "late"
  vnet_subnet_id  = terraform_data.subnet.output
  os_disk_size_gb = %d
}
`, subnet, disk)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config:             cfg(128),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config:      cfg(10),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Attribute\s+os_disk_size_gb:.*should\s+be\s+greater\s+than\s+or\s+equal\s+to\s+30`),
			},
		},
	})
}

// A node class that the hashicorp/kubernetes provider's kubernetes_manifest applied (field
// manager "Terraform", server-side apply), adopted with an import block: the plan is empty,
// and the fields dropped from the configuration on the first apply are removed.
func TestAccAKSNodeClassImportTakesOwnershipFromKubernetesManifest(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-nc-adopt-manifest"
	existing := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.azure.com/v1beta1", "kind": "AKSNodeClass",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"imageFamily": "Ubuntu2204", "maxPods": int64(50), "tags": map[string]any{"team": "a", "env": "dev"}},
	}}
	if _, err := c.Dynamic.Resource(gvr).Apply(context.Background(), name, existing, metav1.ApplyOptions{FieldManager: "Terraform"}); err != nil {
		t.Fatalf("apply the node class as kubernetes_manifest: %v", err)
	}
	addr := "karpenter_aksnodeclass.adopted"
	cfg := func(body string) string {
		return acctest.ProviderBlock(c.KubeconfigPath) + fmt.Sprintf(`
import {
  to = %s
  id = %q
}

resource "karpenter_aksnodeclass" "adopted" {
  name         = %q
  image_family = "Ubuntu2204"
  %s
}
`, addr, name, name, body)
	}
	ownsSpec := func(manager string, want bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			obj, err := get(c, gvr, name)
			if err != nil {
				return err
			}
			for _, mf := range obj.GetManagedFields() {
				if mf.Manager == manager && mf.Subresource == "" && mf.FieldsV1 != nil && strings.Contains(string(mf.FieldsV1.Raw), `"f:spec"`) {
					if !want {
						return fmt.Errorf("%s still owns %s", manager, mf.FieldsV1.Raw)
					}
					return nil
				}
			}
			if want {
				return fmt.Errorf("%s owns no spec field: %+v", manager, obj.GetManagedFields())
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{
				Config: cfg(`max_pods = 50
  tags     = { team = "a", env = "dev" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: ownsSpec("Terraform", true),
			},
			{
				Config: cfg(`tags = { team = "a" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLive(c, gvr, name, []string{"spec", "maxPods"}, nil),
					checkLive(c, gvr, name, []string{"spec", "tags"}, map[string]any{"team": "a"}),
					ownsSpec("Terraform", false),
					ownsSpec(kube.FieldManager, true),
				),
			},
			{
				Config: cfg(`tags = { team = "a" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// A node class subnet that the Network Contributor grants of the NAP resource planned before
// it cover neither directly nor through the VNet is reported on vnet_subnet_id (KRP116; an
// error under checks.strict), offline; a grant on the VNet covers it.
func TestAccAKSNodeClassSubnetNotGranted(t *testing.T) {
	vnet := strings.TrimSuffix(subnet, "/subnets/"+path.Base(subnet))
	other := vnet + "/subnets/pods"
	cfg := func(scope string) string {
		return fmt.Sprintf(`
provider "karpenter" {
  region = "westeurope"
  checks = { strict = true }
}

resource "karpenter_aks_node_auto_provisioning" "this" {
  cluster_id                 = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks"
  network_contributor_scopes = [%q]
}

resource "karpenter_aksnodeclass" "nodes" {
  name           = "nodes"
  vnet_subnet_id = %q
  depends_on     = [karpenter_aks_node_auto_provisioning.this]
}
`, scope, subnet)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      cfg(other),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)KRP116.*Attribute\s+vnet_subnet_id.*Network\s+Contributor`),
			},
			{
				Config:             cfg(vnet),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// The provider's checks.suppress silences KRP116 as it silences every code: the uncovered
// subnet plans without the error strict mode would make of it, and an unknown code is rejected.
func TestAccAKSNodeClassSubnetNotGrantedSuppressed(t *testing.T) {
	vnet := strings.TrimSuffix(subnet, "/subnets/"+path.Base(subnet))
	cfg := func(suppress string) string {
		return fmt.Sprintf(`
provider "karpenter" {
  region = "westeurope"
  checks = { strict = true, suppress = [%q] }
}

resource "karpenter_aks_node_auto_provisioning" "this" {
  cluster_id                 = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks"
  network_contributor_scopes = [%q]
}

resource "karpenter_aksnodeclass" "nodes" {
  name           = "nodes"
  vnet_subnet_id = %q
  depends_on     = [karpenter_aks_node_auto_provisioning.this]
}
`, suppress, vnet+"/subnets/pods", subnet)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg("krp116"), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: cfg("KRP104"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)KRP116.*Attribute\s+vnet_subnet_id`)},
			{Config: cfg("KRP999"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Unknown finding code.*KRP999`)},
		},
	})
}
