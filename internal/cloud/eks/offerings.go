package eks

import (
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// offerings are one regional offering per capacity type (the catalog has no
// zones), priced by catalog.OfferingPrice (the region's table, else the
// fallbacks the AWS provider itself uses). As upstream, an offering without a
// price is not available. cloudprovider.Offering has no room for a price's
// provenance: catalog.OfferingPrice returns it with the number.
func offerings(cat *catalog.Catalog, t *catalog.InstanceType, region string) cloudprovider.Offerings {
	var out cloudprovider.Offerings
	for _, ct := range []catalog.CapacityType{catalog.OnDemand, catalog.Spot} {
		p, ok := cat.OfferingPrice(region, t.Name, ct)
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
