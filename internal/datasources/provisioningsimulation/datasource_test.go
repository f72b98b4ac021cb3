package provisioningsimulation_test

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	corev1 "k8s.io/api/core/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

const pool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
  limits: {cpu: "64"}
`

func fixturePool(t *testing.T) *analysis.Pool {
	t.Helper()
	obj := map[string]any{}
	if err := yaml.Unmarshal([]byte(pool), &obj); err != nil {
		t.Fatal(err)
	}
	p, err := analysis.PoolFromObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// mode = "optimal": the data source reports exactly what the solver's optimum computes for
// the same input, labelled as the optimum.
func TestAccSimulationMatchesSolver(t *testing.T) {
	p := fixturePool(t)
	want, err := optimal.Simulate(analysis.New(catalog.Default()), simmodel.SimulationInput{
		Region: "westeurope", Seed: 1, Pools: []simmodel.SimPool{{Pool: p}},
		Workloads: []simmodel.Workload{
			{Name: "web", Count: 20, Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("500m"), corev1.ResourceMemory: k8sresource.MustParse("1Gi")}},
			{Name: "gpu", Count: 2, Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("1")}, NodeSelector: map[string]string{"karpenter.azure.com/sku-gpu-manufacturer": "nvidia"}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Nodes) == 0 || len(want.Unschedulable) != 1 {
		t.Fatalf("fixture: expected nodes and one unschedulable workload, got %d nodes, %v", len(want.Nodes), want.Unschedulable)
	}
	cfg := fmt.Sprintf(`
provider "karpenter" {
  region = "westeurope"
}

data "karpenter_provisioning_simulation" "s" {
  mode      = "optimal"
  nodepools = [%q]
  workloads = [
    { name = "web", count = 20, requests = { cpu = "500m", memory = "1Gi" } },
    { name = "gpu", count = 2, requests = { cpu = "1" }, node_selector = { "karpenter.azure.com/sku-gpu-manufacturer" = "nvidia" } },
  ]
}
`, pool)
	addr := "data.karpenter_provisioning_simulation.s"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "method", "optimal"),
				resource.TestCheckResourceAttr(addr, "node_count", strconv.Itoa(len(want.Nodes))),
				resource.TestCheckResourceAttr(addr, "hourly_cost", fmt.Sprint(want.HourlyCost)),
				resource.TestCheckResourceAttr(addr, "lower_bound", fmt.Sprint(want.LowerBound)),
				resource.TestCheckResourceAttr(addr, "scheduled_pods", strconv.Itoa(want.ScheduledPods)),
				resource.TestCheckResourceAttr(addr, "nodes.0.sku", want.Nodes[0].SKU),
				resource.TestCheckResourceAttr(addr, "nodes.0.pool", "general"),
				resource.TestCheckResourceAttr(addr, "unschedulable.0.workload", "gpu"),
				resource.TestCheckResourceAttr(addr, "unschedulable.0.count", "2"),
			),
		}},
	})
}

// A manifest the API server would reject fails on the list element that holds it.
func TestAccSimulationRejectsInvalidManifest(t *testing.T) {
	bad := `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: bad}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements: [{key: karpenter.sh/nodepool, operator: In, values: [x]}]
`
	cfg := fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region    = "westeurope"
  nodepools = [%q]
  workloads = [{ name = "web", count = 1, requests = { cpu = "1" } }]
}
`, bad)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps:                    []resource.TestStep{{Config: cfg, ExpectError: regexp.MustCompile(`(?s)Attribute nodepools\[0\]:.*restricted`)}},
	})
}

// lower_bound_method = "configuration" reports the solver's configuration LP bound, which is
// tighter than the default for the same packing; an unknown method fails on the attribute.
func TestAccSimulationConfigurationBound(t *testing.T) {
	p := fixturePool(t)
	in := simmodel.SimulationInput{
		Region: "westeurope", Seed: 1, Pools: []simmodel.SimPool{{Pool: p}},
		Workloads: []simmodel.Workload{
			{Name: "api", Count: 7, Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("1500m"), corev1.ResourceMemory: k8sresource.MustParse("3Gi")}},
			{Name: "cache", Count: 3, Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("250m"), corev1.ResourceMemory: k8sresource.MustParse("6Gi")}},
		},
	}
	s := analysis.New(catalog.Default())
	lp, err := optimal.Simulate(s, in)
	if err != nil {
		t.Fatal(err)
	}
	in.ConfigurationBound = true
	conf, err := optimal.Simulate(s, in)
	if err != nil {
		t.Fatal(err)
	}
	if !(conf.LowerBound > lp.LowerBound && conf.LowerBound <= conf.HourlyCost) {
		t.Fatalf("fixture: want LP bound %v < configuration bound %v ≤ cost %v", lp.LowerBound, conf.LowerBound, conf.HourlyCost)
	}
	cfg := func(method string) string {
		return fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region             = "westeurope"
  mode               = "optimal"
  nodepools          = [%q]
  lower_bound_method = %q
  workloads = [
    { name = "api", count = 7, requests = { cpu = "1500m", memory = "3Gi" } },
    { name = "cache", count = 3, requests = { cpu = "250m", memory = "6Gi" } },
  ]
}
`, pool, method)
	}
	addr := "data.karpenter_provisioning_simulation.s"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg("lp"), Check: resource.TestCheckResourceAttr(addr, "lower_bound", fmt.Sprint(lp.LowerBound))},
			{Config: cfg("configuration"), Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "lower_bound", fmt.Sprint(conf.LowerBound)),
				resource.TestCheckResourceAttr(addr, "hourly_cost", fmt.Sprint(lp.HourlyCost)),
			)},
		},
	})
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg("exact"), ExpectError: regexp.MustCompile(`(?s)lower_bound_method.*must be one of: \["lp" "configuration"\]`)},
		},
	})
}

// By default the data source reports Karpenter's decision (simulation.Predict), not the optimum;
// mode = "both" adds the optimum and the design cost between them; an unknown mode fails on
// the attribute.
func TestAccSimulationKarpenterModeAndBoth(t *testing.T) {
	p := fixturePool(t)
	ws := []simmodel.Workload{
		{Name: "web", Count: 30, Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("500m"), corev1.ResourceMemory: k8sresource.MustParse("1Gi")}},
		{Name: "batch", Count: 6, Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("3"), corev1.ResourceMemory: k8sresource.MustParse("6Gi")}},
	}
	s := analysis.New(catalog.Default())
	overhead := corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("200m")}
	karp, err := simulation.Predict(s, simulation.PredictionInput{Region: "westeurope", Pools: []simmodel.SimPool{{Pool: p}}, Pods: simmodel.Pods(ws),
		DaemonSets: []*corev1.Pod{simulation.DaemonSetPod("daemonset-overhead", overhead)}})
	if err != nil {
		t.Fatal(err)
	}
	opt, err := optimal.Simulate(s, simmodel.SimulationInput{Region: "westeurope", Seed: 1, Pools: []simmodel.SimPool{{Pool: p}}, Workloads: ws, DaemonOverhead: overhead})
	if err != nil {
		t.Fatal(err)
	}
	if karp.HourlyCost <= opt.HourlyCost {
		t.Fatalf("fixture: Karpenter's $%v should cost more than the optimum's $%v", karp.HourlyCost, opt.HourlyCost)
	}
	cfg := func(mode string) string {
		m := ""
		if mode != "" {
			m = fmt.Sprintf("mode = %q", mode)
		}
		return fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region    = "westeurope"
  %s
  nodepools = [%q]
  daemonset_overhead = { cpu = "200m" }
  workloads = [
    { name = "web", count = 30, requests = { cpu = "500m", memory = "1Gi" } },
    { name = "batch", count = 6, requests = { cpu = "3", memory = "6Gi" } },
  ]
}
`, m, pool)
	}
	addr := "data.karpenter_provisioning_simulation.s"
	karpenterFigures := []resource.TestCheckFunc{
		resource.TestCheckResourceAttr(addr, "method", "karpenter"),
		resource.TestCheckResourceAttr(addr, "node_count", strconv.Itoa(len(karp.Nodes))),
		resource.TestCheckResourceAttr(addr, "hourly_cost", fmt.Sprint(karp.HourlyCost)),
		resource.TestCheckResourceAttr(addr, "nodes.0.sku", karp.Nodes[0].SKU),
		resource.TestCheckResourceAttr(addr, "scheduled_pods", "36"),
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg(""), Check: resource.ComposeAggregateTestCheckFunc(append(karpenterFigures,
				resource.TestCheckNoResourceAttr(addr, "lower_bound"),
				resource.TestCheckNoResourceAttr(addr, "design_cost"),
				resource.TestCheckNoResourceAttr(addr, "optimal.hourly_cost"))...)},
			{Config: cfg("both"), Check: resource.ComposeAggregateTestCheckFunc(append(karpenterFigures,
				resource.TestCheckResourceAttr(addr, "optimal.method", "optimal"),
				resource.TestCheckResourceAttr(addr, "optimal.hourly_cost", fmt.Sprint(opt.HourlyCost)),
				resource.TestCheckResourceAttr(addr, "optimal.node_count", strconv.Itoa(len(opt.Nodes))),
				resource.TestCheckResourceAttr(addr, "lower_bound", fmt.Sprint(opt.LowerBound)),
				// Rounded to the currency's precision: 0.293, not 0.2929999999999999.
				resource.TestCheckResourceAttr(addr, "design_cost", fmt.Sprint(money.Round(karp.Currency, karp.HourlyCost-opt.HourlyCost))))...)},
		},
	})
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg("greedy"), ExpectError: regexp.MustCompile(`(?s)mode.*must be one of: \["karpenter" "optimal" "both"\]`)},
		},
	})
}
