package nodepool_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

// familyD is D sizes up to 32 vCPU, three of which the shared limits hold: strict mode then
// reports only what a test is about, not KRP119.
const familyD = `{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] }`

// The disruption checks are plan diagnostics on the attribute concerned, like the provisioning
// checks: a warning in the analysis, an error in strict mode.
func TestAccDisruptionFindings(t *testing.T) {
	cases := []struct {
		name, provider, body, code, want string
	}{
		{"zero budget without schedule", "", template(familyD) + limits + `
  disruption = { consolidate_after = "1m", budgets = [{ nodes = "0" }] }`,
			"KRP401", `(?s)KRP401.*Attribute disruption\.budgets\[0\]\.nodes:.*voluntary disruption is off for\s+good`},
		{"node-level do-not-disrupt", "", template(familyD, `annotations = { "karpenter.sh/do-not-disrupt" = "true" }`) + limits,
			"KRP405", `(?s)KRP405.*Attribute template\.annotations:.*never picks for drift or\s+consolidation`},
		{"Balanced on an older Karpenter", `checks = { karpenter_version = "1.13.0" }`, template(familyD) + limits + `
  disruption = { consolidate_after = "1m", consolidation_policy = "Balanced" }`,
			"KRP408", `(?s)KRP408.*Attribute disruption\.consolidation_policy:.*Karpenter 1\.13\.0`},
		{"schedule Karpenter cannot parse", "", template(familyD) + limits + `
  disruption = { consolidate_after = "1m", budgets = [{ nodes = "10%" }, { nodes = "0", schedule = "CRON_TZ=Europe/Berlin 0 9 * * 1-5", duration = "8h" }] }`,
			"KRP403", `(?s)KRP403.*Attribute disruption\.budgets\[1\]\.schedule:.*cannot parse`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var steps []resource.TestStep
			if tc.code == "KRP403" { // an error by default
				steps = append(steps, resource.TestStep{Config: pool(tc.provider, tc.body), PlanOnly: true, ExpectError: regexp.MustCompile(tc.want)})
			} else {
				strict := `checks = { strict = true }`
				if tc.provider != "" {
					strict = `checks = { strict = true, karpenter_version = "1.13.0" }`
				}
				steps = append(steps,
					// A warning does not fail the plan (the analysis of a new pool, which lists it, is
					// known after apply); strict mode shows it as an error on its attribute.
					resource.TestStep{Config: pool(tc.provider, tc.body), PlanOnly: true, ExpectNonEmptyPlan: true},
					resource.TestStep{Config: pool(strict, tc.body), PlanOnly: true, ExpectError: regexp.MustCompile(tc.want)},
				)
			}
			resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.Factories(), Steps: steps})
		})
	}
}

// The maintenance-window pattern (a zero budget whose schedule leaves a window open, next to
// a 10% budget) passes strict mode, and suppress silences a disruption code as any other.
func TestAccDisruptionCleanAndSuppressed(t *testing.T) {
	window := template(familyD) + limits + `
  disruption = { consolidate_after = "1m", budgets = [{ nodes = "10%" }, { nodes = "0", schedule = "0 6 * * *", duration = "22h" }] }`
	frozen := template(familyD) + limits + `
  disruption = { consolidate_after = "1m", budgets = [{ nodes = "0" }] }
  checks = { suppress = ["KRP401"] }`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: pool(`checks = { strict = true }`, window), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: pool(`checks = { strict = true }`, frozen), PlanOnly: true, ExpectNonEmptyPlan: true},
		},
	})
}

// A target the provider cannot read fails the configuration on the attribute.
func TestAccDisruptionTargetErrors(t *testing.T) {
	body := template(familyD) + limits
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: pool(`checks = { karpenter_version = "latest" }`, body), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)checks\.karpenter_version.*karpenter version "latest"`)},
			{Config: pool(`checks = { feature_gates = "StaticCapacty=true" }`, body), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)checks\.feature_gates.*feature gate "StaticCapacty" is unknown`)},
		},
	})
}
