package simulation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal"
)

// The fixtures of Predict's tests: typed pools and workloads, as internal/simulation/optimal's tests
// build them, so that a prediction and the optimum are compared on the same input.

func testPool(name string, weight int32, limits corev1.ResourceList, taints []corev1.Taint, reqs ...karpv1.NodeSelectorRequirementWithMinValues) simmodel.SimPool {
	np := &karpv1.NodePool{}
	np.Name = name
	if weight != 0 {
		np.Spec.Weight = &weight
	}
	np.Spec.Limits = karpv1.Limits(limits)
	np.Spec.Template.Spec.Taints = taints
	np.Spec.Template.Spec.Requirements = reqs
	return simmodel.SimPool{Pool: analysis.NewPool(np)}
}

var onDemandReq = karpv1.NodeSelectorRequirementWithMinValues{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.CapacityTypeOnDemand}}

func pods(name string, n int, cpu, mem string) simmodel.Workload {
	return simmodel.Workload{Name: name, Count: n, Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}}
}

func simulate(t *testing.T, in simmodel.SimulationInput) *simmodel.Simulation {
	t.Helper()
	if in.Region == "" {
		in.Region = "westeurope"
	}
	sim, err := optimal.Simulate(testSolver, in)
	if err != nil {
		t.Fatal(err)
	}
	return sim
}
