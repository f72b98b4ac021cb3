package nodepool_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

const checkRegion = "westeurope"

// pool renders a plan-only configuration: no kubernetes block, no Azure credentials.
func pool(providerExtra, body string) string {
	return fmt.Sprintf(`
provider "karpenter" {
  region = %q
  %s
}

resource "karpenter_nodepool" "p" {
  name = "checked"
  %s
}
`, checkRegion, providerExtra, body)
}

func template(requirements string, extra ...string) string {
	s := `template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [` + requirements + `]
`
	for _, e := range extra {
		s += "    " + e + "\n"
	}
	return s + "  }\n"
}

const limits = `limits = { cpu = "100", memory = "400Gi" }`

func planStep(cfg string, checks ...plancheck.PlanCheck) resource.TestStep {
	return resource.TestStep{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true,
		ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: checks}}
}

// Each finding is reported on the attribute it concerns: errors fail the plan, warnings do not
// (and strict mode turns them into errors, which shows their attribute path in the message).
func TestAccChecksFindingCodes(t *testing.T) {
	cases := []struct {
		name, body, code string
		isError          bool
		want             string // in the diagnostic
	}{
		{"no instance type", template(`{ key = "karpenter.azure.com/sku-cpu", operator = "Gt", values = ["4096"] }`) + limits,
			"KRP101", true, `(?s)KRP101.*Attribute template\.requirements:.*no instance type satisfies.*karpenter\.azure\.com/sku-cpu Gt \[4096\]`},
		{"few instance types", template(`{ key = "node.kubernetes.io/instance-type", operator = "In", values = ["Standard_D2s_v5"] }`) + limits,
			"KRP102", false, `(?s)KRP102.*Attribute template\.requirements:.*only 1 instance type.*Standard_D2s_v5`},
		{"minValues", template(`{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E", "F"], min_values = 3 },
      { key = "node.kubernetes.io/instance-type", operator = "In", values = ["Standard_D2s_v5", "Standard_E2s_v5"] }`) + limits,
			"KRP103", true, `(?s)KRP103.*Attribute template\.requirements\[0\]\.min_values:.*minValues 3.*only 2\s+distinct`},
		{"no limits", template(`{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }`),
			"KRP104", false, `(?s)KRP104.*Attribute limits:.*no limits`},
		{"limits below node", template(`{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }`) + `limits = { cpu = "1" }`,
			"KRP105", true, `(?s)KRP105.*Attribute limits:.*smaller than every admissible node`},
		// 100 vCPU over D sizes up to 96: Karpenter charges each new NodeClaim 96 vCPU, so one
		// provisioning round opens one NodeClaim of any size; a warning on limits.
		{"limits reservation", template(`{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }`) + `limits = { cpu = "100" }`,
			"KRP119", false, `(?s)KRP119.*Attribute limits:.*Standard_D96\S*\s+with\s+96\s+vCPU,\s+against\s+cpu=100.*only\s+1\s+new\s+NodeClaim.*karpenter\.azure\.com/sku-cpu\s+Lt\s+33`},
		{"unknown key", template(`{ key = "topology.kubernetes.io/zon", operator = "In", values = ["westeurope-1"] }`) + limits,
			"KRP106", false, `(?s)KRP106.*Attribute template\.requirements\[0\]\.key:.*did\s+you\s+mean\s+"topology\.kubernetes\.io/zone"`},
		{"unknown value", template(`{ key = "node.kubernetes.io/instance-type", operator = "In", values = ["Standard_D4s_v5", "Standard_D4s_v55"] }`) + limits,
			"KRP107", false, `(?s)KRP107.*Attribute template\.requirements\[0\]\.values:.*Standard_D4s_v55.*did you mean`},
		{"GPU without taint", template(`{ key = "karpenter.azure.com/sku-gpu-manufacturer", operator = "In", values = ["nvidia"] }`) + limits,
			"KRP109", false, `(?s)KRP109.*Attribute template\.taints:.*GPU size`},
		{"single zone", template(`{ key = "topology.kubernetes.io/zone", operator = "In", values = ["westeurope-1"] }`) + limits,
			"KRP111", false, `(?s)KRP111.*westeurope-1`},
		{"largest pod", template(`{ key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["9"] }`) + limits + "\n  checks = { largest_pod = { cpu = \"12\" } }",
			"KRP112", true, `(?s)KRP112.*cpu=12`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			steps := []resource.TestStep{}
			if tc.isError {
				steps = append(steps, resource.TestStep{Config: pool("", tc.body), PlanOnly: true, ExpectError: regexp.MustCompile(tc.want)})
			} else {
				// A warning does not fail the plan (the analysis of a new pool, which lists it, is
				// known after apply: TestAccChecksAnalysisSummary); strict mode shows it as an error.
				steps = append(steps,
					resource.TestStep{Config: pool("", tc.body), PlanOnly: true, ExpectNonEmptyPlan: true},
					resource.TestStep{Config: pool(`checks = { strict = true }`, tc.body), PlanOnly: true, ExpectError: regexp.MustCompile(tc.want)},
				)
			}
			resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.Factories(), Steps: steps})
		})
	}
}

// Suppressing a code for one pool silences it, also in strict mode.
func TestAccChecksSuppression(t *testing.T) {
	body := template(`{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }`) + "\n  checks = { suppress = [\"KRP104\"] }"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps:                    []resource.TestStep{{Config: pool(`checks = { strict = true }`, body), PlanOnly: true, ExpectNonEmptyPlan: true}},
	})
}

// The provider's checks.suppress silences a code for every pool, as a pool's own does; the
// pool's own list adds to it.
func TestAccChecksProviderSuppression(t *testing.T) {
	body := template(`{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }`)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: pool(`checks = { strict = true, suppress = ["KRP104"] }`, body), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: pool(`checks = { strict = true, suppress = ["KRP116"] }`, body), PlanOnly: true, ExpectError: regexp.MustCompile(`KRP104`)},
		},
	})
}

// The summary shows what Karpenter could launch, with the catalog's own prices: in the state
// after the pool is created (known after apply here: its node class does not exist, and this run
// might create it), and in the plan of an update.
func TestAccChecksAnalysisSummary(t *testing.T) {
	c := testenv.Get(t)
	body := func(cpu string) string {
		return template(`{ key = "node.kubernetes.io/instance-type", operator = "In", values = ["Standard_D2s_v5", "Standard_D4s_v5", "Standard_D8s_v5", "Standard_D16s_v5", "Standard_D32s_v5"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] }`) + `limits = { cpu = "` + cpu + `" }`
	}
	cfg := func(cpu string) string {
		return fmt.Sprintf(`
provider "karpenter" {
  region     = %q
  kubernetes = { config_path = %q }
}

resource "karpenter_nodepool" "p" {
  name = "acc-summary"
  %s
}
`, checkRegion, c.KubeconfigPath, body(cpu))
	}
	price, _, ok := catalog.Default().Price(checkRegion, "Standard_D2s_v5", catalog.CapacityType("on-demand"))
	if !ok {
		t.Fatal("catalog has no price for Standard_D2s_v5")
	}
	addr := "karpenter_nodepool.p"
	at := func(k string) tfjsonpath.Path { return tfjsonpath.New("analysis").AtMapKey(k) }
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, "acc-summary"),
		Steps: []resource.TestStep{
			{
				Config: cfg("64"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownValue(addr, tfjsonpath.New("analysis"))},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "analysis.scope", checkRegion),
					resource.TestCheckResourceAttr(addr, "analysis.admissible_skus", "5"),
					resource.TestCheckResourceAttr(addr, "analysis.cheapest_sku", "Standard_D2s_v5"),
					resource.TestCheckResourceAttr(addr, "analysis.cheapest_hourly_price", fmt.Sprint(price)),
					resource.TestCheckResourceAttr(addr, "analysis.largest_sku", "Standard_D32s_v5"),
					resource.TestCheckResourceAttr(addr, "analysis.largest_vcpu", "32"),
					resource.TestCheckResourceAttr(addr, "analysis.limits_allow_one_node", "true"),
					resource.TestCheckResourceAttr(addr, "analysis.monthly_cost_at_limits", fmt.Sprint(roundTo4(price/2*64*730))),
					// No AKSNodeClass "default" in the test cluster: the defaults, and a note saying so.
					resource.TestCheckResourceAttr(addr, "analysis.node_class", "defaults assumed (AKSNodeClass default does not exist)"),
					resource.TestCheckTypeSetElemNestedAttrs(addr, "analysis.findings.*", map[string]string{"code": "KRP113", "severity": "note"}),
					// 64 vCPU hold two of the largest size, D32s_v5: a provisioning round opens two
					// NodeClaims of any size (KRP119, on limits).
					resource.TestCheckTypeSetElemNestedAttrs(addr, "analysis.findings.*", map[string]string{"code": "KRP119", "severity": "warning", "path": "spec.limits"}),
				),
			},
			{
				Config: cfg("128"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, at("cheapest_sku"), knownvalue.StringExact("Standard_D2s_v5")),
						plancheck.ExpectKnownValue(addr, at("monthly_cost_at_limits"), knownvalue.Float64Exact(roundTo4(price/2*128*730))),
					},
				},
			},
		},
	})
}

// A pool that allows spot and on-demand launches spot at the 2026-08-22 list
// price and shows the on-demand side next to it; without limits the cost at
// the limits is null, not 0 ("free"). A create's analysis is known after apply.
func TestAccChecksAnalysisSpotAndOnDemand(t *testing.T) {
	c := testenv.Get(t)
	body := template(`{ key = "node.kubernetes.io/instance-type", operator = "In", values = ["Standard_D2s_v5", "Standard_D4s_v5"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] }`)
	cfg := fmt.Sprintf(`
provider "karpenter" {
  region     = %q
  kubernetes = { config_path = %q }
}

resource "karpenter_nodepool" "p" {
  name = "acc-spot-od"
  %s
}
`, checkRegion, c.KubeconfigPath, body)
	spot, _ := catalog.Default().Quote(checkRegion, "Standard_D2s_v5", catalog.Spot)
	od, _ := catalog.Default().Quote(checkRegion, "Standard_D2s_v5", catalog.OnDemand)
	addr := "karpenter_nodepool.p"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, "acc-spot-od"),
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "analysis.cheapest_capacity_type", "spot"),
				resource.TestCheckResourceAttr(addr, "analysis.cheapest_hourly_price", fmt.Sprint(spot.Price)),
				resource.TestCheckResourceAttr(addr, "analysis.price_source", "list 2026-08-22"),
				resource.TestCheckResourceAttr(addr, "analysis.price_estimated", "false"),
				resource.TestCheckResourceAttr(addr, "analysis.capacity_types.on-demand.hourly_price", fmt.Sprint(od.Price)),
				resource.TestCheckResourceAttr(addr, "analysis.capacity_types.spot.sku", "Standard_D2s_v5"),
				resource.TestCheckNoResourceAttr(addr, "analysis.monthly_cost_at_limits"),
			),
		}},
	})
}

func roundTo4(f float64) float64 { return float64(int64(f*10000+0.5)) / 10000 }

// An AKSNodeClass planned in the same configuration changes which sizes qualify: with
// encryption at host, sizes that do not support it are no longer admissible. The plan's
// diagnostics use it; the analysis of the pool created with it says so after apply.
func TestAccChecksUseNodeClassFromConfiguration(t *testing.T) {
	c := testenv.Get(t)
	sku := skuWithoutEncryptionAtHost(t)
	cfg := func(encryption bool) string {
		return fmt.Sprintf(`
provider "karpenter" {
  region     = %q
  kubernetes = { config_path = %q }
}

resource "karpenter_aksnodeclass" "nc" {
  name     = "acc-secure"
  security = { encryption_at_host = %t }
}

resource "karpenter_nodepool" "p" {
  name = "acc-secure-pool"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.nc.name }
    requirements   = [{ key = "node.kubernetes.io/instance-type", operator = "In", values = [%q] }]
  }
  limits = { cpu = "1000" }
  checks = { suppress = ["KRP102"] }
}
`, checkRegion, c.KubeconfigPath, encryption, sku)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, "acc-secure-pool"),
		Steps: []resource.TestStep{
			{Config: cfg(false), Check: resource.TestCheckResourceAttr("karpenter_nodepool.p", "analysis.node_class", "AKSNodeClass acc-secure")},
			{Config: cfg(true), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)KRP101.*AKSNodeClass\s+acc-secure`)},
		},
	})
}

func skuWithoutEncryptionAtHost(t *testing.T) string {
	cat := catalog.Default()
	plain := aks.List(cat, checkRegion, aks.NodeClass{}, aks.Cluster{})
	secure := aks.List(cat, checkRegion, aks.NodeClass{EncryptionAtHost: true}, aks.Cluster{})
	ok := map[string]bool{}
	for _, it := range secure.InstanceTypes {
		ok[it.Name] = true
	}
	for _, it := range plain.InstanceTypes {
		if !ok[it.Name] {
			return it.Name
		}
	}
	t.Skip("every size in the catalog supports encryption at host")
	return ""
}

// Values known only after apply never fail a plan: the analysis is then unknown.
func TestAccChecksUnknownValuesNeverFail(t *testing.T) {
	cfg := fmt.Sprintf(`
provider "karpenter" {
  region = %q
  checks = { strict = true }
}

resource "terraform_data" "family" {
  input = "D"
}

resource "karpenter_nodepool" "p" {
  name = "checked"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = [terraform_data.family.output] }]
  }
}
`, checkRegion)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps:                    []resource.TestStep{planStep(cfg, plancheck.ExpectUnknownValue("karpenter_nodepool.p", tfjsonpath.New("analysis")))},
	})
}

// A misspelt region is an error on the provider's region, with a suggestion.
func TestAccChecksUnknownRegion(t *testing.T) {
	cfg := `
provider "karpenter" {
  region = "westeurop"
}

resource "karpenter_nodepool" "p" {
  name = "checked"
  ` + template(`{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }`) + limits + `
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps:                    []resource.TestStep{{Config: cfg, PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Error: Unknown region.*region = "westeurop".*did\s+you\s+mean\s+westeurope`)}},
	})
}

// A misspelt code in checks.suppress is an error naming the known codes, not a silent no-op.
func TestAccChecksSuppressRejectsUnknownCode(t *testing.T) {
	body := template(`{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }`) + "\n  checks = { suppress = [\"KRP14\"] }"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps:                    []resource.TestStep{{Config: pool("", body), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Unknown finding code.*"KRP14".*KRP104`)}},
	})
}

// node_class_ref: the CRD accepts any group and kind, but Karpenter launches nodes only from
// AKSNodeClass (AKS) or EC2NodeClass (EKS) (another pair is an error at plan, naming both); a
// literal name no planned node class of its kind has, other than NAP's default AKSNodeClass,
// is a warning (it may exist in the cluster). EKS has no default class.
func TestAccChecksNodeClassRef(t *testing.T) {
	ref := func(group, kind, name string) string {
		return fmt.Sprintf(`template = {
    node_class_ref = { group = %q, kind = %q, name = %q }
    requirements   = [`+familyD+`]
  }
  `, group, kind, name) + limits
	}
	// A pool for EKS, with a requirement of both clouds' vocabulary.
	eksRef := func(name string) string {
		return fmt.Sprintf(`template = {
    node_class_ref = { group = "karpenter.k8s.aws", kind = "EC2NodeClass", name = %q }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
  `, name) + limits
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: pool("", ref("karpenter.k8s.gcp", "GCENodeClass", "default")), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)KRP201.*Attribute template\.node_class_ref:.*"GCENodeClass".*AKSNodeClass\s+\(karpenter\.azure\.com\)\s+on\s+AKS,\s+or\s+EC2NodeClass\s+\(karpenter\.k8s\.aws\)\s+on\s+EKS`)},
			// Each cloud's group with its own kind only.
			{Config: pool("", ref("karpenter.k8s.aws", "AKSNodeClass", "default")), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)KRP201.*Attribute template\.node_class_ref:.*"AKSNodeClass"\s+of\s+group\s+"karpenter\.k8s\.aws"`)},
			// An EC2NodeClass is a node class: accepted. Its default is not NAP's, so it gets the
			// warning a name no planned class has (an error in strict mode).
			// (The provider's region is an Azure one, which the EC2 catalog does not know: KRP114.)
			{Config: pool(`checks = { suppress = ["KRP114"] }`, eksRef("default")), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: pool(`checks = { strict = true, suppress = ["KRP114"] }`, eksRef("default")), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)KRP201.*Attribute template\.node_class_ref\.name:.*No\s+karpenter_ec2nodeclass\s+planned.*"default"`)},
			// NAP's default is created by AKS: no warning, even in strict mode.
			{Config: pool(`checks = { strict = true }`, ref("karpenter.azure.com", "AKSNodeClass", "default")), PlanOnly: true, ExpectNonEmptyPlan: true},
			// Any other name no planned node class has: a warning, an error in strict mode.
			{Config: pool(`checks = { strict = true }`, ref("karpenter.azure.com", "AKSNodeClass", "nowhere")), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)KRP201.*Attribute template\.node_class_ref\.name:.*"nowhere"`)},
			{Config: pool("", ref("karpenter.azure.com", "AKSNodeClass", "nowhere")), PlanOnly: true, ExpectNonEmptyPlan: true},
			// The provider's checks.suppress silences it for every pool, strict mode or not.
			{Config: pool(`checks = { strict = true, suppress = ["KRP201"] }`, ref("karpenter.azure.com", "AKSNodeClass", "nowhere")), PlanOnly: true, ExpectNonEmptyPlan: true},
		},
	})
}

// A typo in a key of Karpenter's own domains: the CRD rejects it (the domain is restricted) and
// the plan also names the key that was probably meant.
func TestAccChecksRestrictedKeyTypo(t *testing.T) {
	for key, want := range map[string]string{
		"karpenter.azure.com/sku-familly": `karpenter\.azure\.com/sku-family`,
		"karpenter.sh/capacity-typ":       `karpenter\.sh/capacity-type`,
	} {
		body := template(fmt.Sprintf(`{ key = %q, operator = "In", values = ["D"] }`, key)) + limits
		resource.UnitTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.Factories(),
			Steps: []resource.TestStep{{Config: pool("", body), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)KRP106.*did\s+you\s+mean\s+"` + want + `"`)}},
		})
	}
}

// An invalid checks.largest_pod request is an error on its map key saying what a quantity is,
// not silently left out of KRP112 (which then checked the other resources, or nothing).
func TestAccChecksLargestPodRejectsInvalidQuantity(t *testing.T) {
	body := template(`{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }`) + limits
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: pool("", body+"\n  checks = { largest_pod = { cpu = \"abc\", memory = \"8Gi\" } }"), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Invalid checks\.largest_pod.*Attribute checks\.largest_pod\["cpu"\]:.*"abc" is not a\s+Kubernetes\s+quantity.*"500m"`)},
			{Config: pool("", body+"\n  checks = { largest_pod = { memory = \"-1Gi\" } }"), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Attribute checks\.largest_pod\["memory"\]:.*"-1Gi" is negative`)},
			// Both at once: every problem is reported, not the first.
			{Config: pool("", body+"\n  checks = { largest_pod = { cpu = \"x\", memory = \"y\" } }"), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)largest_pod\["cpu"\].*largest_pod\["memory"\]`)},
		},
	})
}
