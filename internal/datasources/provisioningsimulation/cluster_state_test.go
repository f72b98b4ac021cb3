package provisioningsimulation_test

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

// cluster_state_yaml is where the simulation starts: the example's three running
// Standard_D4s_v5 nodes (3860m allocatable, one 1-CPU pod each) take one 2-CPU pod each, and
// the fourth gets a NodeClaim.
func TestAccSimulationClusterStateYAML(t *testing.T) {
	state, err := os.ReadFile("../../../examples/simulate/pool-change/cluster-state.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := func(stateYAML string) string {
		return fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region             = "westeurope"
  nodepools          = [%q]
  workloads          = [{ name = "batch", count = 4, requests = { cpu = "2", memory = "1Gi" } }]
  cluster_state_yaml = [%q]
}
`, pool, stateYAML)
	}
	addr := "data.karpenter_provisioning_simulation.s"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg(string(state)), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "pods_on_running_nodes", "3"),
				resource.TestCheckResourceAttr(addr, "node_count", "1"),
				resource.TestCheckResourceAttr(addr, "scheduled_pods", "1"),
			)},
			// Without it, the cluster is empty: every pod on new nodes.
			{Config: fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region    = "westeurope"
  nodepools = [%q]
  workloads = [{ name = "batch", count = 4, requests = { cpu = "2", memory = "1Gi" } }]
}
`, pool), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckNoResourceAttr(addr, "pods_on_running_nodes"),
				resource.TestCheckResourceAttr(addr, "scheduled_pods", "4"),
			)},
			// A malformed object is an error on its element, at its line.
			{Config: cfg("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: x}\n  spec: {containers: 3}\n"),
				ExpectError: regexp.MustCompile(`(?s)Unreadable cluster state.*cluster_state_yaml\[0\], line \d+:.*Pod x`)},
		},
	})
}
