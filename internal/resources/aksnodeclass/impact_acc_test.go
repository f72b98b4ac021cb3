package aksnodeclass_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

var nodeClaims = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}

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

// launchedOn creates n launched NodeClaims of the pool on the node class, as Karpenter leaves them.
func launchedOn(t *testing.T, c *testenv.Cluster, class, pool string, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		name := fmt.Sprintf("%s-%d", pool, i)
		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "karpenter.sh/v1", "kind": "NodeClaim",
			"metadata": map[string]any{"name": name, "labels": map[string]any{"karpenter.sh/nodepool": pool, "karpenter.azure.com/sku-family": "D",
				"node.kubernetes.io/instance-type": "Standard_D4s_v5", "karpenter.sh/capacity-type": "on-demand"}},
			"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": class},
				"requirements": []any{map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"Standard_D4s_v5"}}},
			},
		}}
		got, err := c.Dynamic.Resource(nodeClaims).Create(ctx, obj, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// Karpenter's Drift controller judges launched NodeClaims only.
		got.Object["status"] = map[string]any{"nodeName": "aks-" + name, "conditions": []any{map[string]any{
			"type": "Launched", "status": "True", "reason": "Launched", "message": "", "lastTransitionTime": "2026-12-01T00:00:00Z",
		}}}
		if _, err := c.Dynamic.Resource(nodeClaims).UpdateStatus(ctx, got, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Dynamic.Resource(nodeClaims).Delete(context.Background(), name, metav1.DeleteOptions{}) })
	}
}

// Issue 29 item 3: an image family change drifts the nodes launched from the class (the
// class hash), reported on the attribute with the pool's pace; checks.cluster_impact = false
// turns it off. Strict mode makes the warning an error, so the plan's output can be matched.
func TestAccAKSNodeClassPlanWarnsOfDrift(t *testing.T) {
	c := testenv.Get(t)
	class, pool := "acc-nc-impact", "acc-nc-impact-pool"
	// KRP119: the limits let one round open few NodeClaims, beside the point here.
	strict := `checks = { strict = true, suppress = ["KRP119"] }`
	want := `(?s)KRP422.*Attribute image_family:\s+` + strings.Join(strings.Fields(regexp.QuoteMeta(
		"this change drifts 2 of 2 nodes of NodePool acc-nc-impact-pool; budgets allow 1 at a time: about 2 replacement rounds")), `\s+`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, class),
		Steps: []resource.TestStep{
			{Config: impactConfig(c.KubeconfigPath, "", class, pool, "AzureLinux")},
			{
				PreConfig: func() { launchedOn(t, c, class, pool, 2) },
				Config:    impactConfig(c.KubeconfigPath, strict, class, pool, "Ubuntu2204"), PlanOnly: true, ExpectNonEmptyPlan: true,
				ExpectError: regexp.MustCompile(want),
			},
			{
				Config:   impactConfig(c.KubeconfigPath, `checks = { strict = true, suppress = ["KRP119"], cluster_impact = false }`, class, pool, "Ubuntu2204"),
				PlanOnly: true, ExpectNonEmptyPlan: true,
			},
		},
	})
}
