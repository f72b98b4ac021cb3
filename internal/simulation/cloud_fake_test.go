package simulation

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/fakecloud"
)

// twoClouds serves Azure (the default) and the test-only example cloud.
var twoClouds = sync.OnceValue(func() *analysis.Analyzer {
	return analysis.NewWithClouds(aks.NewCloud(catalog.Default()), fakecloud.Cloud{})
})

func examplePool(name string, nc *karpv1.NodeClassReference) simmodel.SimPool {
	p := testPool(name, 0, nil, nil)
	p.Pool.Spec.Template.Spec.NodeClassRef = nc
	return simmodel.SimPool{Pool: analysis.NewPool(p.Pool.NodePool)}
}

var exampleRef = &karpv1.NodeClassReference{Group: fakecloud.Group, Kind: fakecloud.Kind, Name: "default"}

// nodeSKUs are the sizes of a simulation's nodes, sorted and without repeats.
func nodeSKUs(sim *simmodel.Simulation) []string {
	var out []string
	for _, n := range sim.Nodes {
		out = append(out, n.SKU)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// A pool whose nodeClassRef names the example cloud's group is simulated on that cloud's
// instance types only, by Karpenter's decision (Predict) and by the optimum, whether or not
// its node class is known (nil: the cloud's default, never Azure's because Azure is the
// default cloud). Before the seam reached the simulation the pool got Azure's types for the
// region, which has none: every pod stayed pending.
func TestSimulationServesAPoolOfAnotherCloud(t *testing.T) {
	s := twoClouds()
	for _, nc := range []struct {
		name string
		nc   simmodel.SimPool
	}{
		{"no node class", examplePool("ex", exampleRef)},
		{"its node class", func() simmodel.SimPool {
			p := examplePool("ex", exampleRef)
			p.NodeClass = fakecloud.NodeClass{}
			return p
		}()},
		{"an Azure node class", func() simmodel.SimPool { p := examplePool("ex", exampleRef); p.NodeClass = aks.NodeClass{}; return p }()},
	} {
		t.Run(nc.name, func(t *testing.T) {
			ws := []simmodel.Workload{pods("web", 6, "1", "2Gi"), pods("cache", 2, "3", "20Gi")}
			in := PredictionInput{Region: fakecloud.Region, Pools: []simmodel.SimPool{nc.nc}, Pods: simmodel.Pods(ws)}
			got, err := Predict(s, in)
			if err != nil {
				t.Fatal(err)
			}
			if got.ScheduledPods != 8 || len(got.Unschedulable) != 0 {
				t.Fatalf("karpenter: %d scheduled, pending %+v", got.ScheduledPods, got.Unschedulable)
			}
			for _, sku := range nodeSKUs(got) {
				if !slices.Contains(fakecloud.TypeNames, sku) {
					t.Errorf("karpenter launched %s, not an example type (%v)", sku, fakecloud.TypeNames)
				}
			}
			opt, err := optimal.Simulate(s, simmodel.SimulationInput{Region: fakecloud.Region, Pools: in.Pools, Workloads: ws})
			if err != nil {
				t.Fatal(err)
			}
			if opt.ScheduledPods != 8 || len(opt.Unschedulable) != 0 || opt.HourlyCost <= 0 {
				t.Fatalf("optimum: %d scheduled, $%.2f, pending %+v", opt.ScheduledPods, opt.HourlyCost, opt.Unschedulable)
			}
			for _, sku := range nodeSKUs(opt) {
				if !slices.Contains(fakecloud.TypeNames, sku) {
					t.Errorf("the optimum launched %s, not an example type", sku)
				}
			}
			if opt.HourlyCost > got.HourlyCost+1e-9 {
				t.Errorf("optimum $%.2f above Karpenter's $%.2f", opt.HourlyCost, got.HourlyCost)
			}
		})
	}

	// An AKS pool beside it in an Azure region keeps Azure's sizes (the example cloud has none
	// there).
	az := testPool("az", 0, nil, nil, onDemandReq)
	got, err := Predict(s, PredictionInput{Region: "westeurope", Pools: []simmodel.SimPool{az, examplePool("ex", exampleRef)}, Pods: simmodel.Pods([]simmodel.Workload{pods("web", 3, "1", "2Gi")})})
	if err != nil {
		t.Fatal(err)
	}
	for _, sku := range nodeSKUs(got) {
		if !strings.HasPrefix(sku, "Standard_") {
			t.Errorf("an Azure region launched %s", sku)
		}
	}
}

const examplePoolYAML = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: ex}
spec:
  template:
    spec:
      nodeClassRef: {group: compute.example.com, kind: ExampleNodeClass, name: spotty}
      requirements:
        - {key: compute.example.com/family, operator: In, values: [memory]}
`

// Simulate reads a node class of any registered cloud's kind and gives it to the pools that
// reference it by group, kind and name; a node class of a kind no cloud serves is skipped,
// saying so.
func TestSimulateReadsAnotherCloudsNodeClass(t *testing.T) {
	var np, nc, alien map[string]any
	for doc, into := range map[string]*map[string]any{
		examplePoolYAML: &np,
		"apiVersion: compute.example.com/v1\nkind: ExampleNodeClass\nmetadata: {name: spotty}\nspec: {spot: true}\n": &nc,
		"apiVersion: compute.other.io/v1\nkind: OtherNodeClass\nmetadata: {name: spotty}\n":                          &alien,
	} {
		if err := yaml.Unmarshal([]byte(doc), into); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Simulate(context.Background(), twoClouds(), Input{Region: fakecloud.Region, NodePools: []map[string]any{np},
		NodeClasses: []map[string]any{nc, alien}, Pods: []*corev1.Pod{pod("a", "2", "30Gi")}}, Both)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Assumptions) != 0 {
		t.Errorf("the pool's ExampleNodeClass is in the input, yet: %v", res.Assumptions)
	}
	if len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0], "OtherNodeClass/spotty: no registered cloud serves") {
		t.Errorf("skipped %v, want the OtherNodeClass", res.Skipped)
	}
	if got := res.simPools[0].NodeClass; got != (fakecloud.NodeClass{Spot: true}) {
		t.Errorf("the pool's node class is %#v, want the decoded ExampleNodeClass", got)
	}
	for _, sim := range []*simmodel.Simulation{res.Karpenter, res.Optimal} {
		if got := nodeSKUs(sim); !slices.Equal(got, []string{"ex.memory.large"}) || sim.ScheduledPods != 1 {
			t.Errorf("%s: nodes %v, %d scheduled", sim.Method, got, sim.ScheduledPods)
		}
	}
}
