package analysis

import (
	"math"

	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

// PriceOf is the list price an offering is charged at: the type's spot or on-demand price by
// the offering's capacity type.
func PriceOf(it *aks.InstanceType, of *cloudprovider.Offering) aks.Price {
	return priceOf(it, of)
}

// RoundPrice rounds an hourly price to a millionth of a dollar, as every price the analysis
// and the simulations report is rounded.
func RoundPrice(f float64) float64 { return math.Round(f*1e6) / 1e6 }
