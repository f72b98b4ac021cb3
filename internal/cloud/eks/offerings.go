package eks

import (
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// offerings are one regional offering per capacity type (the catalog has no
// zones). As upstream, an offering without a price is not available: in a
// region without a price table nothing is, which callers must report as
// missing data, not as capacity. cloudprovider.Offering has no room for a
// price's provenance: catalog.Price returns it with the number.
func offerings(cat *catalog.Catalog, t *catalog.InstanceType, region string) cloudprovider.Offerings {
	var out cloudprovider.Offerings
	for _, ct := range []catalog.CapacityType{catalog.OnDemand, catalog.Spot} {
		p, ok := cat.Price(region, t.Name, ct)
		out = append(out, &cloudprovider.Offering{
			Requirements: scheduling.NewRequirements(
				scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, string(ct)),
				scheduling.NewRequirement(LabelCapacityReservationID, corev1.NodeSelectorOpDoesNotExist),
			),
			Price:     p.Value,
			Available: ok,
		})
	}
	return out
}
