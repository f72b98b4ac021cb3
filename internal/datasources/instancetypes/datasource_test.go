package instancetypes_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

// The data source lists exactly what the solver admits, cheapest first, with its prices.
func TestAccInstanceTypesMatchSolver(t *testing.T) {
	np := &karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: "karpenter-instance-types"}}
	np.Spec.Template.Spec.Requirements = []karpv1.NodeSelectorRequirementWithMinValues{
		{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpIn, Values: []string{"D"}},
		{Key: "karpenter.azure.com/sku-cpu", Operator: corev1.NodeSelectorOpLt, Values: []string{"5"}},
		{Key: "kubernetes.io/arch", Operator: corev1.NodeSelectorOpIn, Values: []string{"arm64"}},
	}
	a := analysis.New(catalog.Default()).Analyze(analysis.NewPool(np), analysis.Options{Region: "northeurope", NodeClass: aks.NodeClass{ImageFamily: "AzureLinux"}})
	if len(a.Admissible) < 2 {
		t.Fatalf("fixture admits too few sizes: %d", len(a.Admissible))
	}
	first := a.Admissible[0].InstanceType
	alloc := first.Allocatable()
	cfg := `
provider "karpenter" {
  region = "westeurope" # overridden by the data source
}

data "karpenter_instance_types" "arm" {
  region = "northeurope"
  requirements = [
    { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
    { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["5"] },
    { key = "kubernetes.io/arch", operator = "In", values = ["arm64"] },
  ]
  node_class  = { image_family = "AzureLinux" }
  max_results = 1
}
`
	addr := "data.karpenter_instance_types.arm"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "total", strconv.Itoa(a.Summary.AdmissibleSKUs)),
				resource.TestCheckResourceAttr(addr, "instance_types.#", "1"),
				resource.TestCheckResourceAttr(addr, "instance_types.0.name", first.Name),
				resource.TestCheckResourceAttr(addr, "instance_types.0.architecture", "arm64"),
				resource.TestCheckResourceAttr(addr, "instance_types.0.on_demand_price", fmt.Sprint(first.OnDemand.Value)),
				resource.TestCheckResourceAttr(addr, "instance_types.0.capacity.cpu", first.Capacity.Cpu().String()),
				resource.TestCheckResourceAttr(addr, "instance_types.0.allocatable.memory", alloc.Memory().String()),
			),
		}},
	})
}

// Requirements are judged by the NodePool CRD's own rules, on the attribute concerned.
func TestAccInstanceTypesRejectsInvalidRequirement(t *testing.T) {
	cfg := `
data "karpenter_instance_types" "bad" {
  region       = "westeurope"
  requirements = [{ key = "karpenter.azure.com/sku-cpu", operator = "Gt", values = ["a", "b"] }]
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps:                    []resource.TestStep{{Config: cfg, ExpectError: regexp.MustCompile(`(?s)Attribute requirements:.*must have a\s+single\s+positive\s+integer`)}},
	})
}

// Spot prices carry their provenance: the 2026-08-22 list price in westeurope,
// a labelled estimate in eastus, which has no spot list prices.
func TestAccInstanceTypesSpotPriceSource(t *testing.T) {
	cfg := func(region string) string {
		return fmt.Sprintf(`
data "karpenter_instance_types" "spot" {
  region = %q
  requirements = [
    { key = "node.kubernetes.io/instance-type", operator = "In", values = ["Standard_D4s_v5"] },
    { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot"] },
  ]
}
`, region)
	}
	addr := "data.karpenter_instance_types.spot"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg("westeurope"), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "instance_types.0.spot_price", "0.042504"),
				resource.TestCheckResourceAttr(addr, "instance_types.0.spot_price_source", "list 2026-08-22"),
				resource.TestCheckResourceAttr(addr, "instance_types.0.on_demand_price", "0.23"),
				resource.TestCheckResourceAttr(addr, "instance_types.0.on_demand_price_source", "list 2026-06-18"),
				resource.TestCheckResourceAttr(addr, "instance_types.0.price_estimated", "false"),
			)},
			{Config: cfg("eastus"), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestMatchResourceAttr(addr, "instance_types.0.spot_price_source", regexp.MustCompile(`^estimated: on-demand × 0\.185, the median spot/on-demand ratio of Standard_D4s_v5 in 4 region\(s\)`)),
				resource.TestCheckResourceAttr(addr, "instance_types.0.spot_price", "0.035482"),
				resource.TestCheckResourceAttr(addr, "instance_types.0.price_estimated", "true"),
			)},
		},
	})
}

// node_class takes karpenter_aksnodeclass's attributes and means what they mean there: the
// object they make, defaulted by the CRD, gives the settings the resources' checks use. The
// deprecated flat attributes keep their meaning; with their replacement they are an error.
func TestAccInstanceTypesNodeClassAsTheResource(t *testing.T) {
	total := func(nc aks.NodeClass, reqs ...karpv1.NodeSelectorRequirementWithMinValues) string {
		np := &karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: "karpenter-instance-types"}}
		np.Spec.Template.Spec.Requirements = reqs
		a := analysis.New(catalog.Default()).Analyze(analysis.NewPool(np), analysis.Options{Region: "westeurope", NodeClass: nc})
		return strconv.Itoa(a.Summary.AdmissibleSKUs)
	}
	cfg := func(nodeClass string) string {
		return fmt.Sprintf(`
data "karpenter_instance_types" "x" {
  region     = "westeurope"
  node_class = %s
}
`, nodeClass)
	}
	armCfg := func(nodeClass string) string {
		return fmt.Sprintf(`
data "karpenter_instance_types" "x" {
  region       = "westeurope"
  requirements = [{ key = "kubernetes.io/arch", operator = "In", values = ["arm64"] }]
  node_class   = %s
}
`, nodeClass)
	}
	secure := total(aks.NodeClass{EncryptionAtHost: true})
	if secure == total(aks.NodeClass{}) {
		t.Fatal("fixture: encryption at host changes nothing")
	}
	addr := "data.karpenter_instance_types.x"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg(`{ security = { encryption_at_host = true } }`), Check: resource.TestCheckResourceAttr(addr, "total", secure)},
			{Config: cfg(`{ encryption_at_host = true }`), Check: resource.TestCheckResourceAttr(addr, "total", secure)},
			// Artifact streaming excludes arm64 in the Azure provider: no size is left.
			{Config: armCfg(`{ artifact_streaming = { enabled = true } }`), Check: resource.TestCheckResourceAttr(addr, "total", "0")},
			{Config: cfg(`{ gpu = { mode = "None" } }`), Check: resource.TestCheckResourceAttr(addr, "total", total(aks.NodeClass{GPUMode: "None"}))},
			{Config: cfg(`{ encryption_at_host = true, security = { encryption_at_host = false } }`),
				ExpectError: regexp.MustCompile(`(?s)Conflicting node_class settings.*encryption_at_host`)},
			// Judged by the AKSNodeClass CRD, as karpenter_aksnodeclass is.
			{Config: cfg(`{ image_family = "Windows" }`),
				ExpectError: regexp.MustCompile(`(?s)Invalid node_class.*Attribute node_class\.image_family:.*"Windows".*"AzureLinux"`)},
		},
	})
}

// A replace-mode catalog_path file in EUR: the prices are EUR, and currency says so (the
// embedded snapshots are USD).
func TestAccInstanceTypesCurrencyOfTheCatalog(t *testing.T) {
	var buf bytes.Buffer
	if err := catalog.Default().WriteOverrideJSON(&buf); err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	doc["currency"] = "EUR"
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "eur.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := func(provider string) string {
		return provider + `
data "karpenter_instance_types" "d4" {
  region       = "westeurope"
  requirements = [{ key = "node.kubernetes.io/instance-type", operator = "In", values = ["Standard_D4s_v5"] }]
}
`
	}
	addr := "data.karpenter_instance_types.d4"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg(""), Check: resource.TestCheckResourceAttr(addr, "instance_types.0.currency", "USD")},
			{Config: cfg(fmt.Sprintf("provider \"karpenter\" {\n  checks = { catalog_path = %q }\n}\n", path)), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "instance_types.0.currency", "EUR"),
				resource.TestCheckResourceAttr(addr, "instance_types.0.on_demand_price", "0.23"),
			)},
		},
	})
}
