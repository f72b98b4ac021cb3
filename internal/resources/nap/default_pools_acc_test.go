package nap_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure/armfake"
)

// Switching default_node_pools from Auto to None on a cluster in Auto mode is reported on the
// attribute (KRP410; an error under checks.strict) before AKS deletes its default NodePools;
// a warning only without strict. Keeping Auto is not reported, even under strict.
func TestAccNAPDefaultNodePoolsRemoved(t *testing.T) {
	h := newHarness(t, armfake.NAP{Mode: "Auto", DefaultNodePools: "Auto"}, true)
	strict := func(attrs string) string {
		return strings.Replace(h.config(attrs), "provider \"karpenter\" {\n", "provider \"karpenter\" {\n  checks = { strict = true }\n", 1)
	}
	none := `  default_node_pools = "None"`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.factories(),
		Steps: []resource.TestStep{
			{Config: strict("")},
			{Config: strict(none), PlanOnly: true,
				ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)KRP410.*Attribute\s+default_node_pools:\s+%s.*delete\s+them,\s+which\s+drains\s+and\s+deletes`, regexp.QuoteMeta(h.w.ClusterID())))},
			{Config: h.config(none), PlanOnly: true, ExpectNonEmptyPlan: true},
		},
	})
}
