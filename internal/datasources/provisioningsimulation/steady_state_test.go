package provisioningsimulation_test

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

// The wide pool of examples/simulate/wide with steady_state = true: karpenter_steady_state is
// simulate's steadyState (internal/cli/simulate's TestSteadyStateWide and the guide show the
// same 11 nodes at USD 155.792/h after one Underutilized replacement), labelled as Karpenter's
// emulated steady state with list prices; the top-level figures stay the first round's. In
// mode both the advice judges the steady state (simulate's TestAdviceWidePool: sku-cpu Lt 65
// at USD 42.062/h). Without steady_state nothing is run; with mode optimal it is an error.
func TestAccSimulationSteadyState(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../../../examples/simulate/wide/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cfg := func(mode, steady string) string {
		return fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region         = "westeurope"
  mode           = %q
  nodepools      = [%q]
  aksnodeclasses = [%q]
  workloads_yaml = [%q]
  %s
}
`, mode, read("nodepool.yaml"), read("nodeclass.yaml"), read("workloads.yaml"), steady)
	}
	addr := "data.karpenter_provisioning_simulation.s"
	st := "karpenter_steady_state."
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg("karpenter", "steady_state = true"), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "hourly_cost", "152.791"),
				resource.TestCheckResourceAttr(addr, st+"method", "Karpenter, steady state (emulated)"),
				resource.TestMatchResourceAttr(addr, st+"label", regexp.MustCompile(`^Karpenter's steady state, reached 3m15s after the start .*simulated clock\)$`)),
				resource.TestCheckResourceAttr(addr, st+"ended", "steady state"),
				resource.TestCheckResourceAttr(addr, st+"seconds_to_steady_state", "195"),
				resource.TestCheckResourceAttr(addr, st+"node_count", "11"),
				resource.TestCheckResourceAttr(addr, st+"nodes.#", "11"),
				resource.TestCheckResourceAttr(addr, st+"hourly_cost", "155.792"),
				resource.TestCheckResourceAttr(addr, st+"monthly_cost", "113728.16"),
				resource.TestCheckResourceAttr(addr, st+"currency", "USD"),
				resource.TestCheckResourceAttr(addr, st+"prices", "list 2026-06-18; list 2026-08-22"),
				resource.TestCheckResourceAttr(addr, st+"pending", "0"),
				resource.TestCheckResourceAttr(addr, st+"disruptions.#", "1"),
				resource.TestCheckResourceAttr(addr, st+"disruptions.0.seconds", "105"),
				resource.TestCheckResourceAttr(addr, st+"disruptions.0.reason", "Underutilized"),
				resource.TestCheckResourceAttr(addr, st+"disruptions.0.method", "single"),
				resource.TestCheckResourceAttr(addr, st+"disruptions.0.removed.0.sku", "Standard_D128as_v7"),
				resource.TestCheckResourceAttr(addr, st+"disruptions.0.removed.0.hourly_price", "7.027"),
				resource.TestMatchResourceAttr(addr, st+"disruptions.0.removed.0.price_source", regexp.MustCompile(`^list \d{4}-\d{2}-\d{2}$`)),
				resource.TestCheckResourceAttr(addr, st+"disruptions.0.replacements.0.sku", "Standard_HB120rs_v2"),
				resource.TestCheckResourceAttr(addr, st+"disruptions.0.pods_evicted", "50"),
				resource.TestCheckResourceAttr(addr, st+"disruptions.0.estimated_saving", "2.347"),
				resource.TestCheckResourceAttr(addr, st+"totals.Underutilized", "1"),
				resource.TestCheckResourceAttr(addr, st+"totals.Empty", "0"),
				resource.TestCheckResourceAttr(addr, st+"pods_evicted", "50"),
				resource.TestCheckResourceAttr(addr, st+"blocked.#", "0"),
				resource.TestCheckTypeSetElemNestedAttrs(addr, st+"nodes.*", map[string]string{"sku": "Standard_HB120rs_v2", "hourly_price": "4.68", "capacity_type": "on-demand"}),
				resource.TestMatchResourceAttr(addr, st+"assumptions.0", regexp.MustCompile(`initialize`)),
			)},
			{Config: cfg("karpenter", ""), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "hourly_cost", "152.791"),
				resource.TestCheckNoResourceAttr(addr, st+"method"),
			)},
			{Config: cfg("both", "steady_state = true"), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, st+"hourly_cost", "155.792"),
				resource.TestCheckResourceAttr(addr, "advice.state", "steady state"),
				resource.TestCheckResourceAttr(addr, "advice.values.0", "65"),
				resource.TestCheckResourceAttr(addr, "advice.hourly_cost", "42.062"),
				resource.TestCheckResourceAttr(addr, "advice.saving", "113.73"),
			)},
			{Config: cfg("optimal", "steady_state = true"), ExpectError: regexp.MustCompile(`(?s)steady_state runs Karpenter to its steady state: set mode`)},
		},
	})
}
