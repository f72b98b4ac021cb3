package nodepool_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

var nodeClaimsGVR = k8sschema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}

// impactConfig is a pool of family D whose template label tier is given, under a provider
// with the checks block given.
func impactConfig(kubeconfig, checks, name, tier string, cpu ...string) string {
	limit := "200"
	if len(cpu) > 0 {
		limit = cpu[0]
	}
	return fmt.Sprintf(`provider "karpenter" {
  kubernetes = { config_path = %q }
  %s
}

resource "karpenter_nodepool" "test" {
  name = %q
  template = {
    labels         = { tier = %q }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  limits     = { cpu = %q, memory = "400Gi" }
  disruption = { consolidate_after = "1m", budgets = [{ nodes = "10%%" }] }
}
`, kubeconfig, checks, name, tier, limit)
}

// runNodeClaims creates n launched NodeClaims of the pool as Karpenter leaves them: the pool's hash
// (computed by Karpenter's own NodePool.Hash from the live, defaulted pool) on each.
func runNodeClaims(t *testing.T, c *testenv.Cluster, pool string, n int) {
	t.Helper()
	ctx := context.Background()
	np := &karpv1.NodePool{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(live(t, c, pool).Object, np); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		name := fmt.Sprintf("%s-%d", pool, i)
		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "karpenter.sh/v1", "kind": "NodeClaim",
			"metadata": map[string]any{"name": name,
				"labels": map[string]any{karpv1.NodePoolLabelKey: pool, "tier": "general", "karpenter.azure.com/sku-family": "D",
					"node.kubernetes.io/instance-type": "Standard_D4s_v5", karpv1.CapacityTypeLabelKey: "on-demand"},
				"annotations": map[string]any{karpv1.NodePoolHashAnnotationKey: np.Hash(), karpv1.NodePoolHashVersionAnnotationKey: karpv1.NodePoolHashVersion}},
			"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
				"requirements": []any{map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"Standard_D4s_v5"}}},
			},
		}}
		got, err := c.Dynamic.Resource(nodeClaimsGVR).Create(ctx, obj, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// Karpenter's Drift controller judges launched NodeClaims only.
		got.Object["status"] = map[string]any{"nodeName": "aks-" + name, "conditions": []any{map[string]any{
			"type": "Launched", "status": "True", "reason": "Launched", "message": "", "lastTransitionTime": "2026-12-01T00:00:00Z",
		}}}
		if _, err := c.Dynamic.Resource(nodeClaimsGVR).UpdateStatus(ctx, got, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = c.Dynamic.Resource(nodeClaimsGVR).Delete(context.Background(), name, metav1.DeleteOptions{})
		})
	}
}

// Issue 29 item 3: the plan of an update that drifts the pool's running nodes warns on the
// attribute that causes it, with the budgets' pace; checks.cluster_impact = false turns it
// off, and an update that drifts nothing does not warn. Strict mode makes the warning an
// error, so the plan's output can be matched. A PlanOnly step plans without refresh first,
// where the provider is not connected and says nothing, then with refresh.
func TestAccNodePoolPlanWarnsOfDrift(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-impact"
	// KRP119: the limits let one round open few NodeClaims, beside the point here.
	strict := `checks = { strict = true, suppress = ["KRP119"] }`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{Config: impactConfig(c.KubeconfigPath, "", name, "general")},
			{
				PreConfig: func() { runNodeClaims(t, c, name, 3) },
				Config:    impactConfig(c.KubeconfigPath, strict, name, "batch"), PlanOnly: true, ExpectNonEmptyPlan: true,
				ExpectError: regexp.MustCompile(`(?s)KRP422.*Attribute template\.labels:\s+` + words("this change drifts 3 of 3 nodes of NodePool acc-impact; budgets allow 1 at a time: about 3 replacement rounds")),
			},
			{
				Config: impactConfig(c.KubeconfigPath, `checks = { strict = true, suppress = ["KRP119"], cluster_impact = false }`, name, "batch"), PlanOnly: true, ExpectNonEmptyPlan: true,
			},
			// Limits are not part of the hash: no node drifts, no warning.
			{
				Config:   impactConfig(c.KubeconfigPath, strict, name, "general", "300"),
				PlanOnly: true, ExpectNonEmptyPlan: true,
			},
		},
	})
}

// words matches the words of text however the plan output wraps them.
func words(text string) string {
	return strings.Join(strings.Fields(regexp.QuoteMeta(text)), `\s+`)
}
