package analysis

import (
	"math/rand/v2"
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

// TestAdmissibleIndexMatchesReference: the index gives, for every type, exactly the offerings
// the per-type reference (rt.admissible) gives, on random requirement sets over the keys and
// operators NodePools use, including zone requirements on regions without zone data.
func TestAdmissibleIndexMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	menu := []karpv1.NodeSelectorRequirementWithMinValues{
		{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpIn, Values: []string{"D", "E"}},
		{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"B"}},
		{Key: "karpenter.azure.com/sku-cpu", Operator: corev1.NodeSelectorOpGt, Values: []string{"7"}},
		{Key: "karpenter.azure.com/sku-cpu", Operator: corev1.NodeSelectorOpLt, Values: []string{"33"}},
		{Key: corev1.LabelArchStable, Operator: corev1.NodeSelectorOpIn, Values: []string{"arm64"}},
		{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{"spot"}},
		{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"eastus-1", "westeurope-2"}},
		{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpNotIn, Values: []string{"0"}},
		{Key: "karpenter.azure.com/sku-gpu-count", Operator: corev1.NodeSelectorOpDoesNotExist},
		{Key: "karpenter.azure.com/sku-gpu-name", Operator: corev1.NodeSelectorOpExists},
		{Key: corev1.LabelInstanceTypeStable, Operator: corev1.NodeSelectorOpIn, Values: []string{"Standard_D4s_v5", "Standard_D2_v3"}},
		{Key: "team", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}},
	}
	for _, region := range []string{"westeurope", "eastus", AnyRegion} {
		rt := testSolver.types(region, aks.NodeClass{})
		for trial := 0; trial < 60; trial++ {
			var reqs []karpv1.NodeSelectorRequirementWithMinValues
			for _, r := range menu {
				if rng.IntN(4) == 0 {
					reqs = append(reqs, r)
				}
			}
			rs := scheduling.NewNodeSelectorRequirementsWithMinValues(reqs...)
			got := rt.admissibleAll(rs)
			for i, it := range rt.result.InstanceTypes {
				want := rt.admissible(it, rs)
				if len(want) == 0 && len(got[i]) == 0 {
					continue
				}
				if !reflect.DeepEqual(got[i], want) {
					t.Fatalf("%s %v: %s index %v, reference %v", region, reqs, it.Name, got[i], want)
				}
			}
		}
	}
}
