package nodepool_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"k8s.io/apimachinery/pkg/runtime"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/runningnodes"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

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

// runNodeClaims puts n running nodes of the pool on NAP's default class, each with the pool's
// hash (computed by Karpenter's own NodePool.Hash from the live, defaulted pool) as Karpenter
// stamps it at launch.
func runNodeClaims(t *testing.T, c *testenv.Cluster, pool string, n int) {
	t.Helper()
	np := &karpv1.NodePool{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(live(t, c, pool).Object, np); err != nil {
		t.Fatal(err)
	}
	runningnodes.Launch(t, c.Dynamic, runningnodes.Claims{
		Pool: pool, Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default", InstanceType: "Standard_D4s_v5",
		Labels:      map[string]string{"tier": "general", "karpenter.azure.com/sku-family": "D"},
		Annotations: map[string]string{karpv1.NodePoolHashAnnotationKey: np.Hash(), karpv1.NodePoolHashVersionAnnotationKey: karpv1.NodePoolHashVersion},
	}, n)
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
				ExpectError: runningnodes.DriftWarning("template.labels", "this change drifts 3 of 3 nodes of NodePool acc-impact; budgets allow 1 at a time: about 3 replacement rounds"),
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
