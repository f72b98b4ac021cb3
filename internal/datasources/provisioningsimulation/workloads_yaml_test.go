package provisioningsimulation_test

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	corev1 "k8s.io/api/core/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

const webManifests = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 20
  template:
    metadata: {labels: {app: web}}
    spec:
      initContainers:
        - {name: mesh, restartPolicy: Always, resources: {requests: {cpu: 100m, memory: 128Mi}}}
      containers:
        - {name: web, resources: {requests: {cpu: 500m, memory: 1Gi}}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  template:
    spec:
      tolerations: [{operator: Exists}]
      containers: [{name: agent, resources: {requests: {cpu: 100m, memory: 100Mi}}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ignored}
`

// workloads_yaml gives the simulation the same pods as the equivalent workloads attribute:
// each pod requests what Kubernetes counts for it (the sidecar adds to the container), and
// the DaemonSet's requests are charged on every node.
func TestAccSimulationWorkloadsYAML(t *testing.T) {
	s := analysis.New(catalog.Default())
	pools := []simmodel.SimPool{{Pool: fixturePool(t)}}
	web := []simmodel.Workload{{Name: "Deployment/web", Count: 20, Labels: map[string]string{"app": "web"},
		Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("600m"), corev1.ResourceMemory: k8sresource.MustParse("1152Mi")}}}
	agent := corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("100m"), corev1.ResourceMemory: k8sresource.MustParse("100Mi")}
	want, err := optimal.Simulate(s, simmodel.SimulationInput{
		Region: "westeurope", Seed: 1, Pools: pools, Workloads: web,
		DaemonOverhead: corev1.ResourceList{corev1.ResourceCPU: agent[corev1.ResourceCPU], corev1.ResourceMemory: agent[corev1.ResourceMemory],
			corev1.ResourcePods: k8sresource.MustParse("1")},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Karpenter's decision on the same pods: one container with the whole pod's requests
	// counts as the sidecar and the container do, and the DaemonSet runs on every node.
	predicted, err := simulation.Predict(s, simulation.PredictionInput{Region: "westeurope", Pools: pools, Pods: simmodel.Pods(web),
		DaemonSets: []*corev1.Pod{simulation.DaemonSetPod("agent", agent)}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := func(mode string) string {
		return fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region         = "westeurope"
  mode           = %q
  nodepools      = [%q]
  workloads_yaml = [%q]
}
`, mode, pool, webManifests)
	}
	addr := "data.karpenter_provisioning_simulation.s"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: cfg("optimal"),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "node_count", strconv.Itoa(len(want.Nodes))),
				resource.TestCheckResourceAttr(addr, "hourly_cost", fmt.Sprint(want.HourlyCost)),
				resource.TestCheckResourceAttr(addr, "lower_bound", fmt.Sprint(want.LowerBound)),
				resource.TestCheckResourceAttr(addr, "scheduled_pods", "20"),
				resource.TestCheckResourceAttr(addr, "nodes.0.sku", want.Nodes[0].SKU),
			),
		}, {
			Config: cfg("karpenter"),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "method", "karpenter"),
				resource.TestCheckResourceAttr(addr, "node_count", strconv.Itoa(len(predicted.Nodes))),
				resource.TestCheckResourceAttr(addr, "hourly_cost", fmt.Sprint(predicted.HourlyCost)),
				resource.TestCheckResourceAttr(addr, "scheduled_pods", "20"),
				resource.TestCheckResourceAttr(addr, "nodes.0.sku", predicted.Nodes[0].SKU),
				resource.TestCheckResourceAttr(addr, "nodes.0.pods.Deployment/web", strconv.Itoa(predicted.Nodes[0].Pods[0].Count)),
			),
		}},
	})
}

// A malformed workload fails on the element of workloads_yaml that holds it, naming the line
// and the field; no workloads at all is an error too.
func TestAccSimulationWorkloadsYAMLErrors(t *testing.T) {
	bad := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: \"3\"\n  template: {spec: {containers: [{name: a}]}}\n"
	cfg := func(attr string) string {
		return fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region    = "westeurope"
  mode      = "optimal"
  nodepools = [%q]
  %s
}
`, pool, attr)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg(fmt.Sprintf("workloads_yaml = [%q]", bad)), ExpectError: regexp.MustCompile(`(?s)KRP301:.*workloads_yaml\[0\]\s+line\s+5\s+\(Deployment/web\s+spec.replicas\)`)},
			{Config: cfg("workloads_yaml = [\"kind: [\"]"), ExpectError: regexp.MustCompile(`(?s)KRP005:.*workloads_yaml\[0\]\s+line\s+1:\s+malformed\s+YAML`)},
			{Config: cfg(""), ExpectError: regexp.MustCompile(`No workloads`)},
		},
	})
}

// The elements of workloads_yaml are one cluster: a LimitRange in one gives the pods of a
// Deployment in another their requests, as the API server would.
func TestAccSimulationWorkloadsYAMLAcrossElements(t *testing.T) {
	want, err := optimal.Simulate(analysis.New(catalog.Default()), simmodel.SimulationInput{
		Region: "westeurope", Seed: 1, Pools: []simmodel.SimPool{{Pool: fixturePool(t)}},
		Workloads: []simmodel.Workload{{Name: "Deployment/api", Count: 3,
			Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("2"), corev1.ResourceMemory: k8sresource.MustParse("4Gi")}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	limits := "apiVersion: v1\nkind: LimitRange\nmetadata: {name: defaults}\nspec:\n  limits: [{type: Container, defaultRequest: {cpu: \"2\", memory: 4Gi}}]\n"
	app := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  replicas: 3\n  template: {spec: {containers: [{name: a}]}}\n"
	cfg := fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region         = "westeurope"
  mode           = "optimal"
  nodepools      = [%q]
  workloads_yaml = [%q, %q]
}
`, pool, limits, app)
	addr := "data.karpenter_provisioning_simulation.s"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(addr, "node_count", strconv.Itoa(len(want.Nodes))),
				resource.TestCheckResourceAttr(addr, "hourly_cost", fmt.Sprint(want.HourlyCost)),
			),
		}},
	})
}
