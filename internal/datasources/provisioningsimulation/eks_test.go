package provisioningsimulation_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	corev1 "k8s.io/api/core/v1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

const eksPool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: apps}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: small}
      requirements:
        - {key: karpenter.k8s.aws/instance-family, operator: In, values: [m5]}
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
`

// kubelet.maxPods = 8 caps every node at eight pods.
const eksNodeClass = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: small}
spec:
  role: KarpenterNodeRole-my-cluster
  amiSelectorTerms: [{alias: al2023@latest}]
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: my-cluster}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: my-cluster}}]
  kubelet: {maxPods: 8}
`

// An EKS pool through the data source: priced in its AWS region on EC2 instance types, with
// its EC2NodeClass's kubelet.maxPods applied, as the simulate command computes it. Without the
// node class, the defaults give each node more pods and the round fewer nodes.
func TestAccSimulationEKSPool(t *testing.T) {
	objects := func(texts ...string) []map[string]any {
		var out []map[string]any
		for _, text := range texts {
			obj := map[string]any{}
			if err := yaml.Unmarshal([]byte(text), &obj); err != nil {
				t.Fatal(err)
			}
			out = append(out, obj)
		}
		return out
	}
	ws := []simmodel.Workload{{Name: "web", Count: 20, Requests: corev1.ResourceList{corev1.ResourceCPU: k8sresource.MustParse("100m"), corev1.ResourceMemory: k8sresource.MustParse("128Mi")}}}
	s := analysis.New(catalog.Default())
	simulate := func(classes ...string) *simmodel.Simulation {
		res, err := simulation.Simulate(context.Background(), s, simulation.Input{Region: "us-east-1", NodePools: objects(eksPool), NodeClasses: objects(classes...), Workloads: ws}, simulation.Karpenter)
		if err != nil {
			t.Fatal(err)
		}
		return res.Karpenter
	}
	capped, uncapped := simulate(eksNodeClass), simulate()
	if len(capped.Nodes) < 3 || len(capped.Nodes) <= len(uncapped.Nodes) || !strings.HasPrefix(capped.Nodes[0].SKU, "m5.") {
		t.Fatalf("fixture: want at least three m5 nodes with maxPods 8 and fewer without, got %+v and %+v", capped.Nodes, uncapped.Nodes)
	}
	cfg := func(classes string) string {
		return fmt.Sprintf(`
data "karpenter_provisioning_simulation" "s" {
  region         = "us-east-1"
  nodepools      = [%q]
  ec2nodeclasses = [%s]
  workloads      = [{ name = "web", count = 20, requests = { cpu = "100m", memory = "128Mi" } }]
}
`, eksPool, classes)
	}
	addr := "data.karpenter_provisioning_simulation.s"
	figures := func(want *simmodel.Simulation) resource.TestCheckFunc {
		return resource.ComposeAggregateTestCheckFunc(
			resource.TestCheckResourceAttr(addr, "method", "karpenter"),
			resource.TestCheckResourceAttr(addr, "node_count", strconv.Itoa(len(want.Nodes))),
			resource.TestCheckResourceAttr(addr, "hourly_cost", fmt.Sprint(want.HourlyCost)),
			resource.TestCheckResourceAttr(addr, "currency", "USD"),
			resource.TestCheckResourceAttr(addr, "nodes.0.sku", want.Nodes[0].SKU),
			resource.TestCheckResourceAttr(addr, "nodes.0.pool", "apps"),
			resource.TestCheckResourceAttr(addr, "scheduled_pods", "20"),
		)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg(strconv.Quote(eksNodeClass)), Check: figures(capped)},
			{Config: cfg(""), Check: figures(uncapped)},
		},
	})
}
