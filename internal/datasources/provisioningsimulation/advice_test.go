package provisioningsimulation_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

// The wide pool of examples/simulate/wide through the data source: in mode both, `advice` is
// the sku-cpu cap with Karpenter's cost after it, the numbers simulate and the guide show
// (internal/cli/simulate's TestAdviceWidePool pins them); in mode karpenter, which has no
// optimum to compare with, there is no advice.
func TestAccSimulationAdviceWidePool(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../../../examples/simulate/wide/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cfg := func(mode string) string {
		return fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region         = "westeurope"
  mode           = %q
  nodepools      = [%q]
  aksnodeclasses = [%q]
  workloads_yaml = [%q]
}
`, mode, read("nodepool.yaml"), read("nodeclass.yaml"), read("workloads.yaml"))
	}
	addr := "data.karpenter_provisioning_simulation.s"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg("both"), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "method", "karpenter"),
				resource.TestCheckResourceAttr(addr, "hourly_cost", "152.791"),
				resource.TestCheckResourceAttr(addr, "optimal.hourly_cost", "35.8474"),
				resource.TestCheckResourceAttr(addr, "advice.pool", "general"),
				// Without steady_state the advice judges the first round, and says so.
				resource.TestCheckResourceAttr(addr, "advice.state", "first round"),
				resource.TestCheckResourceAttr(addr, "advice.key", "karpenter.azure.com/sku-cpu"),
				resource.TestCheckResourceAttr(addr, "advice.operator", "Lt"),
				resource.TestCheckResourceAttr(addr, "advice.values.#", "1"),
				resource.TestCheckResourceAttr(addr, "advice.values.0", "65"),
				resource.TestCheckResourceAttr(addr, "advice.remove", "false"),
				resource.TestCheckResourceAttr(addr, "advice.assumes_interruptible", "false"),
				resource.TestCheckResourceAttr(addr, "advice.hourly_cost", "44.058"),
				resource.TestCheckResourceAttr(addr, "advice.saving", "108.733"),
				// westeurope's zones are assumed for every size: the nodes say so.
				resource.TestCheckTypeSetElemNestedAttrs(addr, "nodes.*", map[string]string{"zone": "westeurope-1", "zone_assumed": "true"}),
			)},
			{Config: cfg("karpenter"), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "hourly_cost", "152.791"),
				resource.TestCheckNoResourceAttr(addr, "advice.hourly_cost"),
			)},
		},
	})
}
