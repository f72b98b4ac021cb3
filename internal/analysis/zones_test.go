package analysis

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

// TestAssumedZonesAreJudged: a westeurope size without a Resource SKUs listing has its zones
// assumed (every zone of the region), and a zone requirement is judged on those offerings like
// on a listed size's: a pool pinned to westeurope-1 admits only its westeurope-1 offerings, not
// the regional ("0") nor the other zones' (which the optimum then placed pods in).
func TestAssumedZonesAreJudged(t *testing.T) {
	rt := testSolver.types("westeurope", aks.NodeClass{})
	it := rt.byName["Standard_D4s_v5"]
	if it == nil || it.ZonesKnown {
		t.Fatalf("Standard_D4s_v5 in westeurope: %v; want a size whose zones the catalog does not list", it)
	}
	reqs := scheduling.NewNodeSelectorRequirementsWithMinValues(karpv1.NodeSelectorRequirementWithMinValues{
		Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"westeurope-1"}})
	for name, offs := range map[string]cloudprovider.Offerings{"admissible": rt.admissible(it, reqs), "admissibleAll": rt.admissibleAll(reqs)[indexOf(rt, it)]} {
		if len(offs) == 0 {
			t.Errorf("%s: no offering in westeurope-1", name)
		}
		for _, of := range offs {
			if z := cloud.ZoneOf(of); z != "westeurope-1" {
				t.Errorf("%s: offering in zone %q admitted by zone In [westeurope-1]", name, z)
			}
		}
	}
}

func indexOf(rt *regionTypes, it *cloud.InstanceType) int {
	for i, x := range rt.result.InstanceTypes {
		if x == it {
			return i
		}
	}
	return -1
}
