package eks

import (
	"context"
	"slices"
	"sort"

	instancefilter "github.com/aws/karpenter-provider-aws/pkg/providers/instance/filter"
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/operator/options"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// maxInstanceTypes is how many instance types the AWS provider's Create passes to CreateFleet
// (pkg/providers/instance, maxInstanceTypes).
const maxInstanceTypes = 60

// Launch is the AWS provider's Create up to CreateFleet: its own instance filters
// (pkg/providers/instance/filter: compatible and available, capacity reservations, exotic
// types, spot offerings), the truncation to 60 types, the capacity type (spot when the
// NodeClaim allows it and a spot offering is available, else on-demand: getCapacityType), then
// the fleet's choice. On-demand fleets use the lowest-price strategy, so the cheapest
// compatible offering launches. Spot fleets use price-capacity-optimized, which weighs EC2's
// spare capacity per pool: out of reach offline, so the cheapest spot offering stands in
// (an estimate, said in the simulation's assumptions). Offerings are regional (no zones), so
// every offering at the lowest price is returned.
func (c *Cloud) Launch(options []*cloudprovider.InstanceType, reqs scheduling.Requirements, requests corev1.ResourceList, _ map[*cloudprovider.InstanceType]bool) (*cloudprovider.InstanceType, []*cloudprovider.Offering) {
	its, _ := instancefilter.CompatibleAvailableFilter(reqs, requests).FilterReject(options)
	if len(its) == 0 {
		return nil, nil
	}
	// The other filters replace an instance type's offerings with the ones they keep (the
	// spot filter drops spot offerings dearer than the cheapest on-demand one): upstream's
	// instance types are the List of that Create, here they are shared by every NodeClaim,
	// prediction and goroutine, so the filters get shells of them and the launch maps back.
	its, original := shells(its)
	for _, f := range []instancefilter.Filter{
		instancefilter.CapacityReservationTypeFilter(reqs),
		instancefilter.CapacityBlockFilter(reqs),
		instancefilter.ReservedOfferingFilter(reqs),
		instancefilter.ExoticInstanceTypeFilter(reqs),
		instancefilter.SpotOfferingFilter(reqs),
	} {
		if its, _ = f.FilterReject(its); len(its) == 0 {
			return nil, nil
		}
	}
	its, err := cloudprovider.InstanceTypes(its).Truncate(launchContext, reqs, maxInstanceTypes)
	if err != nil || len(its) == 0 {
		return nil, nil
	}
	ct := capacityType(reqs, its)
	fleet := scheduling.NewRequirements(reqs.Values()...)
	fleet.Add(scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, ct))
	var best *cloudprovider.InstanceType
	var tied []*cloudprovider.Offering
	for _, it := range its {
		for _, o := range it.Offerings.Available().Compatible(fleet) {
			switch {
			case best == nil || o.Price < tied[0].Price:
				best, tied = it, []*cloudprovider.Offering{o}
			case o.Price == tied[0].Price && it == best:
				tied = append(tied, o)
			}
		}
	}
	if best == nil {
		return nil, nil
	}
	return original[best], tied
}

// shells are new instance types with the same name, requirements, offerings (the same
// offerings, in a slice of their own), capacity and overhead as its, for filters that
// replace offerings; original maps each back. The filters after the first do not read
// allocatable resources, which a shell would compute again.
func shells(its []*cloudprovider.InstanceType) (out []*cloudprovider.InstanceType, original map[*cloudprovider.InstanceType]*cloudprovider.InstanceType) {
	out = make([]*cloudprovider.InstanceType, len(its))
	original = make(map[*cloudprovider.InstanceType]*cloudprovider.InstanceType, len(its))
	for i, it := range its {
		out[i] = &cloudprovider.InstanceType{Name: it.Name, Requirements: it.Requirements, Offerings: slices.Clone(it.Offerings),
			Capacity: it.Capacity, DynamicResources: it.DynamicResources, Overhead: it.Overhead}
		original[out[i]] = it
	}
	return out, original
}

// launchContext carries the operator options Truncate reads when the requirements have
// minValues: Karpenter's default policy, Strict (a NodeClaim whose 60 cheapest types miss a
// minValues does not launch). Without options in the context Truncate panics.
var launchContext = options.ToContext(context.Background(), &options.Options{MinValuesPolicy: options.MinValuesPolicyStrict})

// capacityType is the AWS provider's getCapacityType without capacity reservations (the
// offline catalog has none): spot when the requirements allow it and some type has an
// available spot offering, else on-demand.
func capacityType(reqs scheduling.Requirements, its []*cloudprovider.InstanceType) string {
	if reqs.Get(karpv1.CapacityTypeLabelKey).Has(karpv1.CapacityTypeSpot) {
		spot := scheduling.NewRequirements(reqs.Values()...)
		spot.Add(scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot))
		for _, it := range its {
			if len(it.Offerings.Available().Compatible(spot)) > 0 {
				return karpv1.CapacityTypeSpot
			}
		}
	}
	return karpv1.CapacityTypeOnDemand
}

// Rank orders candidates as the launch chooses: spot before on-demand where both are allowed
// (getCapacityType prefers spot), then the lowest price (CreateFleet's lowest-price, and
// price standing in for price-capacity-optimized), then the name.
func (c *Cloud) Rank(cands []cloud.InstanceOfferings) []cloud.InstanceOfferings {
	out := make([]cloud.InstanceOfferings, len(cands))
	for i, c := range cands {
		offs := slices.Clone(c.Offerings)
		sort.SliceStable(offs, func(a, b int) bool { return offeringLess(offs[a], offs[b]) })
		out[i] = cloud.InstanceOfferings{InstanceType: c.InstanceType, Offerings: offs}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if len(out[a].Offerings) == 0 || len(out[b].Offerings) == 0 {
			return len(out[a].Offerings) > len(out[b].Offerings)
		}
		oa, ob := out[a].Offerings[0], out[b].Offerings[0]
		if offeringLess(oa, ob) != offeringLess(ob, oa) {
			return offeringLess(oa, ob)
		}
		return out[a].InstanceType.Name < out[b].InstanceType.Name
	})
	return out
}

func offeringLess(a, b *cloudprovider.Offering) bool {
	as, bs := a.CapacityType() == karpv1.CapacityTypeSpot, b.CapacityType() == karpv1.CapacityTypeSpot
	if as != bs {
		return as
	}
	return a.Price < b.Price
}

// SimulationAssumptions are what a simulation of EKS pools cannot know offline: the spot
// allocation strategy's capacity signal, live prices and zones (RegionCaveats).
func (c *Cloud) SimulationAssumptions(region string) []string {
	return append([]string{"EKS: spot NodeClaims launch the cheapest spot offering; the AWS provider's CreateFleet uses the price-capacity-optimized strategy, which also weighs EC2's spare capacity per pool and is out of reach offline (on-demand uses lowest-price, as here)"},
		prefixed("EKS: ", c.RegionCaveats(region))...)
}

func prefixed(p string, s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = p + x
	}
	return out
}
