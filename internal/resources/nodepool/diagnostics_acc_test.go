package nodepool_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

// Issue 13 item 11: every rejection of a pool is reported at once, each on the line of the
// attribute it concerns (Terraform shows the line of the resource's own attribute, so nested
// ones say their full path in the message), not on the `resource` line: an unsupported enum
// value, which keeps the API server from checking any CEL rule, and the CEL rules it would
// check once that is fixed, in two attributes.
func TestAccNodePoolReportsEveryErrorOnItsAttribute(t *testing.T) {
	cfg := `resource "karpenter_nodepool" "bad" {
  name = "bad"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements = [
      { key = "karpenter.sh/nodepool", operator = "In", values = ["x"] },
      { key = "kubernetes.io/arch", operator = "Sometimes", values = ["amd64"] },
    ]
  }
  disruption = { consolidate_after = "1m", budgets = [{ nodes = "1", schedule = "@daily" }] }
}
`
	// The test harness puts a provider block first, so the line numbers are not the ones above.
	onLine := func(code string) string {
		return `line \d+, in resource "karpenter_nodepool" "bad":\s+\d+:\s+` + code
	}
	want := []string{
		`(?s)Unsupported value.*` + onLine(`template = \{`) + `.*Attribute template\.requirements\[1\]\.operator:\s+Unsupported value: "Sometimes"`,
		`(?s)` + onLine(`template = \{`) + `.*Attribute template\.requirements\[0\]\.key:.*is\s+restricted.*once\s+the\s+other\s+errors`,
		`(?s)` + onLine(`disruption = \{`) + `.*Attribute disruption\.budgets:.*'schedule'\s+must\s+be\s+set\s+with\s+'duration'`,
	}
	for _, w := range want {
		resource.UnitTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.Factories(),
			Steps:                    []resource.TestStep{{Config: cfg, PlanOnly: true, ExpectError: regexp.MustCompile(w)}},
		})
	}
}

// Issue 31 item 7: a duration or quantity the CRD's pattern rejects is explained in words with
// the nearest valid value, on its attribute, instead of quoting the regular expression.
func TestAccNodePoolPatternRejectionSuggestsTheNearestValue(t *testing.T) {
	cfg := `resource "karpenter_nodepool" "bad" {
  name = "bad"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  limits     = { cpu = "200 cores" }
  disruption = { consolidate_after = "5 min" }
}
`
	for _, w := range []string{
		`(?s)Attribute disruption\.consolidate_after: Invalid value: "5 min": a duration is.*did you mean\s+"5m"\?`,
		`(?s)Attribute limits\["cpu"\]: Invalid value: "200 cores": a quantity is.*did you mean\s+"200"\?`,
	} {
		resource.UnitTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.Factories(),
			Steps:                    []resource.TestStep{{Config: cfg, PlanOnly: true, ExpectError: regexp.MustCompile(w)}},
		})
	}
}
