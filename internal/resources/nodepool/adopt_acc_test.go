package nodepool_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

const adoptedAddr = "karpenter_nodepool.adopted"

// foreignPool is a NodePool as another tool wrote it: weight 7, a CPU limit and two template
// labels, none of which the configurations below keep for good.
func foreignPool(name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"weight": int64(7),
			"limits": map[string]any{"cpu": "100"},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"tier": "general", "team": "a"}},
				"spec": map[string]any{
					"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
					"requirements": []any{map[string]any{"key": "kubernetes.io/arch", "operator": "In", "values": []any{"amd64"}}},
				},
			},
			"disruption": map[string]any{"consolidateAfter": "1m"},
		},
	}}
}

// adoptedConfig configures the pool with the given weight (0: not set), limits (attribute
// expression, "" not set), template labels and extra lines; importBlock adds an import block.
func adoptedConfig(kubeconfig, name string, weight int, limits, labels, extra string, importBlock bool) string {
	var b strings.Builder
	b.WriteString(acctest.ProviderBlock(kubeconfig))
	if importBlock {
		fmt.Fprintf(&b, "\nimport {\n  to = %s\n  id = %q\n}\n", adoptedAddr, name)
	}
	fmt.Fprintf(&b, "\nresource \"karpenter_nodepool\" \"adopted\" {\n  name = %q\n", name)
	if weight != 0 {
		fmt.Fprintf(&b, "  weight = %d\n", weight)
	}
	if limits != "" {
		fmt.Fprintf(&b, "  limits = %s\n", limits)
	}
	fmt.Fprintf(&b, `  template = {
    labels         = %s
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
  disruption = { consolidate_after = "1m" }
%s}
`, labels, extra)
	return b.String()
}

const (
	bothLabels = `{ tier = "general", team = "a" }`
	tierLabel  = `{ tier = "general" }`
	cpuLimit   = `{ cpu = "100" }`
)

// checkLiveAbsent asserts that a field of the live pool is gone.
func checkLiveAbsent(c *testenv.Cluster, name string, path ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		obj, err := c.Dynamic.Resource(gvr).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if v, found, _ := unstructured.NestedFieldNoCopy(obj.Object, path...); found {
			return fmt.Errorf("live %v = %v, want it removed", path, v)
		}
		return nil
	}
}

// checkManagedFields runs f on the live pool's main-resource managed fields, by manager.
func checkManagedFields(c *testenv.Cluster, name string, f func(byManager map[string]string) error) resource.TestCheckFunc {
	return func(*terraform.State) error {
		obj, err := c.Dynamic.Resource(gvr).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		by := map[string]string{}
		for _, e := range obj.GetManagedFields() {
			if e.Subresource == "" && e.FieldsV1 != nil {
				by[e.Manager] += string(e.FieldsV1.Raw)
			}
		}
		if err := f(by); err != nil {
			return fmt.Errorf("%w (managed fields by manager: %v)", err, by)
		}
		return nil
	}
}

func notListed(manager string) func(map[string]string) error {
	return func(by map[string]string) error {
		if _, ok := by[manager]; ok {
			return fmt.Errorf("%s is still a field manager", manager)
		}
		return nil
	}
}

// The pool as kubectl's client-side apply leaves it (an Update-operation entry), imported with
// `terraform import`: the plan is empty, and dropping fields from the configuration removes them.
func TestAccNodePoolImportTakesOwnershipFromClientSideApply(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-adopt-csa"
	if _, err := c.Dynamic.Resource(gvr).Create(context.Background(), foreignPool(name), metav1.CreateOptions{FieldManager: "kubectl-client-side-apply"}); err != nil {
		t.Fatalf("create the pool as kubectl: %v", err)
	}
	matching := adoptedConfig(c.KubeconfigPath, name, 7, cpuLimit, bothLabels, "", false)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{
				Config:             matching,
				ResourceName:       adoptedAddr,
				ImportState:        true,
				ImportStateId:      name,
				ImportStatePersist: true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					// Unset, as a configuration that does not set it plans it; the default list
					// applies (the third step shows the hand-over).
					if n, ok := states[0].Attributes["take_ownership_from.#"]; ok && n != "0" {
						return fmt.Errorf("imported take_ownership_from has %s elements, want it unset", n)
					}
					return nil
				},
			},
			{
				// The configuration matches the object: nothing to do, nothing written.
				Config: matching,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkManagedFields(c, name, func(by map[string]string) error {
					if _, ok := by["kubectl-client-side-apply"]; !ok {
						return fmt.Errorf("kubectl-client-side-apply lost its fields before any change was applied")
					}
					return nil
				}),
			},
			{
				// weight and the team label dropped: removed from the object.
				Config: adoptedConfig(c.KubeconfigPath, name, 0, cpuLimit, tierLabel, "", false),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(adoptedAddr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLiveAbsent(c, name, "spec", "weight"),
					checkLive(c, name, []string{"spec", "template", "metadata", "labels"}, map[string]any{"tier": "general"}),
					checkLive(c, name, []string{"spec", "limits", "cpu"}, "100"),
					checkManagedFields(c, name, notListed("kubectl-client-side-apply")),
					checkManagedFields(c, name, func(by map[string]string) error {
						if !strings.Contains(by[kube.FieldManager], `"f:limits"`) {
							return fmt.Errorf("%s does not own spec.limits", kube.FieldManager)
						}
						return nil
					}),
				),
			},
			{
				// And the limits, now that the provider owns them.
				Config: adoptedConfig(c.KubeconfigPath, name, 0, "", tierLabel, "", false),
				Check:  checkLiveAbsent(c, name, "spec", "limits"),
			},
			{
				Config: adoptedConfig(c.KubeconfigPath, name, 0, "", tierLabel, "", false),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// The pool as `kubectl apply --server-side` leaves it (an Apply-operation entry, with an
// annotation), imported with an import block: the spec fields move, the annotation stays
// with kubectl, and the limits dropped from the configuration are removed.
func TestAccNodePoolImportTakesOwnershipFromServerSideApply(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-adopt-ssa"
	obj := foreignPool(name)
	obj.SetAnnotations(map[string]string{"example.com/owner": "platform"})
	if _, err := c.Dynamic.Resource(gvr).Apply(context.Background(), name, obj, metav1.ApplyOptions{FieldManager: "kubectl"}); err != nil {
		t.Fatalf("apply the pool as kubectl --server-side: %v", err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{
				Config: adoptedConfig(c.KubeconfigPath, name, 7, cpuLimit, bothLabels, "", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config: adoptedConfig(c.KubeconfigPath, name, 7, "", bothLabels, "", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(adoptedAddr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLiveAbsent(c, name, "spec", "limits"),
					checkLive(c, name, []string{"spec", "weight"}, int64(7)),
					checkLive(c, name, []string{"metadata", "annotations", "example.com/owner"}, "platform"),
					checkManagedFields(c, name, func(by map[string]string) error {
						if k := by["kubectl"]; strings.Contains(k, `"f:spec"`) || !strings.Contains(k, `"f:example.com/owner"`) {
							return fmt.Errorf("kubectl's entry should hold the annotation only: %s", k)
						}
						if !strings.Contains(by[kube.FieldManager], `"f:weight"`) {
							return fmt.Errorf("%s does not own spec.weight", kube.FieldManager)
						}
						return nil
					}),
				),
			},
			{
				Config: adoptedConfig(c.KubeconfigPath, name, 7, "", bothLabels, "", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// A manager that is not in take_ownership_from (AKS's) keeps its field through the first apply
// after the import, while the fields of the listed manager in the same apply are taken over.
func TestAccNodePoolImportLeavesOtherManagers(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-adopt-other"
	ctx := context.Background()
	obj := foreignPool(name)
	unstructured.RemoveNestedField(obj.Object, "spec", "weight")
	if _, err := c.Dynamic.Resource(gvr).Create(ctx, obj, metav1.CreateOptions{FieldManager: "kubectl-client-side-apply"}); err != nil {
		t.Fatalf("create the pool as kubectl: %v", err)
	}
	aks := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": map[string]any{"name": name},
		"spec": map[string]any{"weight": int64(5)},
	}}
	if _, err := c.Dynamic.Resource(gvr).Apply(ctx, name, aks, metav1.ApplyOptions{FieldManager: "aks-node-provisioner"}); err != nil {
		t.Fatalf("apply weight as AKS: %v", err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{
				Config: adoptedConfig(c.KubeconfigPath, name, 5, cpuLimit, bothLabels, "", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// Both weight (AKS's) and the team label (kubectl's) dropped.
				Config: adoptedConfig(c.KubeconfigPath, name, 0, cpuLimit, tierLabel, "", true),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLive(c, name, []string{"spec", "weight"}, int64(5)),
					checkLive(c, name, []string{"spec", "template", "metadata", "labels"}, map[string]any{"tier": "general"}),
					checkManagedFields(c, name, notListed("kubectl-client-side-apply")),
					checkManagedFields(c, name, func(by map[string]string) error {
						if !strings.Contains(by["aks-node-provisioner"], `"f:weight"`) {
							return fmt.Errorf("aks-node-provisioner no longer owns spec.weight")
						}
						if strings.Contains(by[kube.FieldManager], `"f:weight"`) {
							return fmt.Errorf("%s took spec.weight", kube.FieldManager)
						}
						return nil
					}),
				),
			},
		},
	})
}

// take_ownership_from = [] opts out: the old manager keeps its fields, and a field removed
// from the configuration stays in the object.
func TestAccNodePoolImportTakeOwnershipOptOut(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-adopt-optout"
	if _, err := c.Dynamic.Resource(gvr).Create(context.Background(), foreignPool(name), metav1.CreateOptions{FieldManager: "kubectl-client-side-apply"}); err != nil {
		t.Fatalf("create the pool as kubectl: %v", err)
	}
	optOut := "  take_ownership_from = []\n"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{
				// Setting the attribute is the only change of the first plan.
				Config: adoptedConfig(c.KubeconfigPath, name, 7, cpuLimit, bothLabels, optOut, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(adoptedAddr, plancheck.ResourceActionUpdate)},
				},
				Check: resource.TestCheckResourceAttr(adoptedAddr, "take_ownership_from.#", "0"),
			},
			{
				Config: adoptedConfig(c.KubeconfigPath, name, 0, cpuLimit, bothLabels, optOut, true),
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLive(c, name, []string{"spec", "weight"}, int64(7)),
					checkManagedFields(c, name, func(by map[string]string) error {
						if !strings.Contains(by["kubectl-client-side-apply"], `"f:weight"`) {
							return fmt.Errorf("kubectl-client-side-apply no longer owns spec.weight")
						}
						return nil
					}),
				),
			},
		},
	})
}

var (
	policies = schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicies"}
	bindings = schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicybindings"}
)

// freeze installs an admission policy that rejects every update of a NodePool that keeps the
// annotation example.com/frozen, and waits until the API server enforces it on the named pool.
func freeze(t *testing.T, c *testenv.Cluster, name string) {
	t.Helper()
	ctx := context.Background()
	policy := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
		"metadata": map[string]any{"name": "acc-frozen-nodepools"},
		"spec": map[string]any{
			"failurePolicy": "Fail",
			"matchConstraints": map[string]any{"resourceRules": []any{map[string]any{
				"apiGroups": []any{"karpenter.sh"}, "apiVersions": []any{"*"}, "operations": []any{"UPDATE"}, "resources": []any{"nodepools"},
			}}},
			"validations": []any{map[string]any{
				"expression": "!(has(oldObject.metadata.annotations) && 'example.com/frozen' in oldObject.metadata.annotations && " +
					"has(object.metadata.annotations) && 'example.com/frozen' in object.metadata.annotations)",
				"message": "this NodePool is frozen",
			}},
		},
	}}
	binding := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicyBinding",
		"metadata": map[string]any{"name": "acc-frozen-nodepools"},
		"spec":     map[string]any{"policyName": "acc-frozen-nodepools", "validationActions": []any{"Deny"}},
	}}
	if _, err := c.Dynamic.Resource(policies).Create(ctx, policy, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create admission policy: %v", err)
	}
	t.Cleanup(func() { _ = c.Dynamic.Resource(policies).Delete(ctx, "acc-frozen-nodepools", metav1.DeleteOptions{}) })
	if _, err := c.Dynamic.Resource(bindings).Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create admission policy binding: %v", err)
	}
	t.Cleanup(func() { _ = c.Dynamic.Resource(bindings).Delete(ctx, "acc-frozen-nodepools", metav1.DeleteOptions{}) })
	probe := []byte(`{"metadata":{"annotations":{"example.com/probe":"x"}}}`)
	for start := time.Now(); ; time.Sleep(200 * time.Millisecond) {
		_, err := c.Dynamic.Resource(gvr).Patch(ctx, name, types.MergePatchType, probe, metav1.PatchOptions{FieldManager: "probe"})
		if err != nil && strings.Contains(err.Error(), "frozen") {
			return
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("the admission policy is not enforced after 30s (last update: %v)", err)
		}
	}
}

// When the hand-over fails, the apply fails before changing anything, says so and how to retry,
// and the hand-over stays pending: the next apply does it.
func TestAccNodePoolImportTakeOwnershipFailureStaysPending(t *testing.T) {
	c := testenv.Get(t)
	ctx := context.Background()
	name := "acc-adopt-retry"
	obj := foreignPool(name)
	obj.SetAnnotations(map[string]string{"example.com/frozen": "yes"})
	if _, err := c.Dynamic.Resource(gvr).Create(ctx, obj, metav1.CreateOptions{FieldManager: "kubectl-client-side-apply"}); err != nil {
		t.Fatalf("create the pool as kubectl: %v", err)
	}
	freeze(t, c, name)
	dropped := adoptedConfig(c.KubeconfigPath, name, 0, cpuLimit, bothLabels, "", true)
	var rv string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{
				Config: adoptedConfig(c.KubeconfigPath, name, 7, cpuLimit, bothLabels, "", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				PreConfig: func() { rv = live(t, c, name).GetResourceVersion() },
				Config:    dropped,
				ExpectError: regexp.MustCompile(`(?s)Cannot take over the fields of the previous field managers.*` +
					`first\s+apply\s+to\s+NodePool\s+"acc-adopt-retry".*frozen.*Nothing\s+was\s+changed.*run\s+terraform\s+apply\s+again`),
			},
			{
				// Nothing was written; once the object can be updated, the next apply hands over.
				PreConfig: func() {
					if got := live(t, c, name).GetResourceVersion(); got != rv {
						t.Errorf("resourceVersion %s after the failed apply, want %s: the object was written", got, rv)
					}
					patch := []byte(`{"metadata":{"annotations":{"example.com/frozen":null}}}`)
					if _, err := c.Dynamic.Resource(gvr).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: "unfreeze"}); err != nil {
						t.Fatalf("unfreeze: %v", err)
					}
				},
				Config: dropped,
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLiveAbsent(c, name, "spec", "weight"),
					// It keeps the annotations it created, nothing of the spec.
					checkManagedFields(c, name, func(by map[string]string) error {
						if strings.Contains(by["kubectl-client-side-apply"], `"f:spec"`) {
							return fmt.Errorf("kubectl-client-side-apply still owns spec fields")
						}
						return nil
					}),
				),
			},
		},
	})
}
