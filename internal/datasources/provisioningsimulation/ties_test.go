package provisioningsimulation_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	corev1 "k8s.io/api/core/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

// A zone-spread workload in eastus meets equally loaded zones, which Karpenter picks among at
// random: tie_breaks counts them and hourly_cost_range is what simulation.Predict reports; in
// westus (no zones: one placement) there is no tie, tie_breaks is 0 and the range null.
func TestAccSimulationReportsKarpentersRandomTies(t *testing.T) {
	ws := []simmodel.Workload{{Name: "web", Count: 5, ZoneSpread: 1,
		Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("3"), corev1.ResourceMemory: k8sresource.MustParse("6Gi")}}}
	want, err := simulation.Predict(analysis.New(catalog.Default()), simulation.PredictionInput{Region: "eastus", Pools: []simmodel.SimPool{{Pool: fixturePool(t)}}, Pods: simmodel.Pods(ws)})
	if err != nil {
		t.Fatal(err)
	}
	if want.TieBreaks == 0 || want.CostRange == nil {
		t.Fatalf("fixture: no tie in eastus (%d, %+v)", want.TieBreaks, want.CostRange)
	}
	cfg := func(region string) string {
		return fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region    = %q
  nodepools = [%q]
  workloads = [{ name = "web", count = 5, requests = { cpu = "3", memory = "6Gi" }, zone_spread_max_skew = 1 }]
}
`, region, pool)
	}
	addr := "data.karpenter_provisioning_simulation.s"
	r := want.CostRange
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg("eastus"), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "hourly_cost", fmt.Sprint(want.HourlyCost)),
				resource.TestCheckResourceAttr(addr, "tie_breaks", fmt.Sprint(want.TieBreaks)),
				resource.TestCheckResourceAttr(addr, "hourly_cost_range.min", fmt.Sprint(r.Min)),
				resource.TestCheckResourceAttr(addr, "hourly_cost_range.max", fmt.Sprint(r.Max)),
				resource.TestCheckResourceAttr(addr, "hourly_cost_range.min_nodes", fmt.Sprint(r.MinNodes)),
				resource.TestCheckResourceAttr(addr, "hourly_cost_range.max_nodes", fmt.Sprint(r.MaxNodes)),
				resource.TestCheckResourceAttr(addr, "hourly_cost_range.outcomes", fmt.Sprint(r.Outcomes)),
				resource.TestCheckResourceAttr(addr, "hourly_cost_range.runs", fmt.Sprint(r.Runs)),
				resource.TestCheckResourceAttr(addr, "hourly_cost_range.exhaustive", fmt.Sprint(r.Exhaustive)))},
			// westus has no zones (one placement, regional): no tie. westeurope has one no longer:
			// its sizes are assumed offered in its three zones.
			{Config: cfg("westus"), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "tie_breaks", "0"),
				resource.TestCheckNoResourceAttr(addr, "hourly_cost_range.min"))},
		},
	})
}
