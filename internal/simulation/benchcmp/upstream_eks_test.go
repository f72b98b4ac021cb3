package benchcmp

import (
	"math"
	"sort"

	instancefilter "github.com/aws/karpenter-provider-aws/pkg/providers/instance/filter"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	kscheduling "sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks"
)

// awsMaxInstanceTypes is the AWS provider's maxInstanceTypes (pkg/providers/instance): the
// types its Create passes to CreateFleet.
const awsMaxInstanceTypes = 60

// awsLaunch is the AWS provider v1.14.1's Create for a NodeClaim Karpenter's provisioner made
// (ToNodeClaim), as far as it runs offline: CloudProvider.Create lists every instance type of
// the node class (its, the pool's), DefaultProvider.Create filters them with the provider's
// own filters against the NodeClaim's requirements and requests and truncates them to 60
// (filterInstanceTypes), picks the capacity type (getCapacityType: reserved, then spot, when
// the requirements allow it and an offering is available, else on-demand), builds one
// override per compatible available offering of that capacity type (getOverrides; the catalog
// has no zones, so one regional subnet stands for the zonal ones). Its CreateFleetInputBuilder
// asks for the lowest-price strategy on-demand (price-capacity-optimized for spot; the
// prioritized ones only with node overlays, which the scenarios have none of): EC2 fills an
// on-demand fleet from the cheapest override. (The builder itself is not called: its package
// links the AWS SDK middleware module, which the project does not otherwise need.) Spot fleets use price-capacity-optimized, whose spare
// capacity signal is not known offline: the cheapest spot override stands in, as in the
// emulation (eks.Cloud.SimulationAssumptions). ties are the types the cheapest override's
// price ties between, by name: EC2's pick among equally priced pools is not known either.
func awsLaunch(its []*cloudprovider.InstanceType, claim *karpv1.NodeClaim) (it *cloudprovider.InstanceType, o *cloudprovider.Offering, ties []string) {
	reqs := kscheduling.NewNodeSelectorRequirementsWithMinValues(claim.Spec.Requirements...)
	its, _ = instancefilter.CompatibleAvailableFilter(reqs, claim.Spec.Resources.Requests).FilterReject(its)
	// The provider's List gives each Create instance types of its own, whose offerings the
	// other filters replace; the scenario's are shared by both sides and every run.
	its, original := freshTypes(its)
	if len(its) == 0 {
		return nil, nil, nil
	}
	for _, f := range []instancefilter.Filter{
		instancefilter.CapacityReservationTypeFilter(reqs),
		instancefilter.CapacityBlockFilter(reqs),
		instancefilter.ReservedOfferingFilter(reqs),
		instancefilter.ExoticInstanceTypeFilter(reqs),
		instancefilter.SpotOfferingFilter(reqs),
	} {
		if its, _ = f.FilterReject(its); len(its) == 0 {
			return nil, nil, nil
		}
	}
	its, err := cloudprovider.InstanceTypes(its).Truncate(upstreamContext(), reqs, awsMaxInstanceTypes)
	if err != nil || len(its) == 0 {
		return nil, nil, nil
	}
	ct := awsCapacityType(claim, its)
	fleetReqs := kscheduling.NewNodeSelectorRequirementsWithMinValues(claim.Spec.Requirements...)
	fleetReqs[karpv1.CapacityTypeLabelKey] = kscheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, ct)
	type override struct {
		it *cloudprovider.InstanceType
		o  *cloudprovider.Offering
	}
	var overrides []override
	seen := map[string]bool{}
	for _, it := range its {
		for _, o := range it.Offerings.Available().Compatible(fleetReqs) {
			if key := it.Name + "/" + cloud.ZoneOf(o); !seen[key] {
				seen[key] = true
				overrides = append(overrides, override{it, o})
			}
		}
	}
	if len(overrides) == 0 {
		return nil, nil, nil
	}
	best := math.Inf(1)
	for _, ov := range overrides {
		if ov.o.Price < best {
			best, it, o = ov.o.Price, ov.it, ov.o
		}
	}
	for _, ov := range overrides {
		if ov.o.Price == best {
			ties = append(ties, ov.it.Name)
		}
	}
	sort.Strings(ties)
	return original[it], o, ties
}

// freshTypes are new instance types with the same fields as its but for their own slice of
// the same offerings; original maps each back.
func freshTypes(its []*cloudprovider.InstanceType) ([]*cloudprovider.InstanceType, map[*cloudprovider.InstanceType]*cloudprovider.InstanceType) {
	out := make([]*cloudprovider.InstanceType, len(its))
	original := make(map[*cloudprovider.InstanceType]*cloudprovider.InstanceType, len(its))
	for i, it := range its {
		out[i] = &cloudprovider.InstanceType{Name: it.Name, Requirements: it.Requirements, Offerings: append(cloudprovider.Offerings(nil), it.Offerings...),
			Capacity: it.Capacity, DynamicResources: it.DynamicResources, Overhead: it.Overhead}
		original[out[i]] = it
	}
	return out, original
}

// awsCapacityType is the AWS provider's getCapacityType (pkg/providers/instance, unexported):
// reserved, then spot, where the NodeClaim's requirements allow it and some instance type has
// an available offering of it; else on-demand.
func awsCapacityType(claim *karpv1.NodeClaim, its []*cloudprovider.InstanceType) string {
	for _, ct := range []string{karpv1.CapacityTypeReserved, karpv1.CapacityTypeSpot} {
		reqs := kscheduling.NewNodeSelectorRequirementsWithMinValues(claim.Spec.Requirements...)
		if !reqs.Get(karpv1.CapacityTypeLabelKey).Has(ct) {
			continue
		}
		reqs[karpv1.CapacityTypeLabelKey] = kscheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, ct)
		for _, it := range its {
			if len(it.Offerings.Available().Compatible(reqs)) != 0 {
				return ct
			}
		}
	}
	return karpv1.CapacityTypeOnDemand
}

// priceTies are, among a NodeClaim's options, the ones whose available offering of the
// capacity type compatible with its requirements has the launched price, by name (the
// emulation's side of awsLaunch's ties). The AWS provider's exotic-type filter keeps metal
// and accelerated types out of a fleet a general-purpose type can fill: so here.
func priceTies(options []*cloudprovider.InstanceType, reqs kscheduling.Requirements, ct string, price float64) []string {
	fleet := kscheduling.NewRequirements(reqs.Values()...)
	fleet.Add(kscheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, ct))
	generic, _ := instancefilter.ExoticInstanceTypeFilter(reqs).FilterReject(options)
	var out []string
	for _, it := range generic {
		for _, o := range it.Offerings.Available().Compatible(fleet) {
			if o.Price == price {
				out = append(out, it.Name)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// awsLaunchers gives every pool the AWS provider's launch choice and label set, as the
// scenario is an EKS one.
func awsLaunchers(pools []*karpv1.NodePool) (map[string]cloud.Launcher, map[string]sets.Set[string]) {
	c := eks.NewCloud(nil)
	launchers, labels := make(map[string]cloud.Launcher, len(pools)), make(map[string]sets.Set[string], len(pools))
	for _, np := range pools {
		launchers[np.Name], labels[np.Name] = c, c.WellKnownLabels()
	}
	return launchers, labels
}

var eksTypeCache = map[string][]*cloudprovider.InstanceType{}

// eksRegionTypes are the region's EKS instance types for the default EC2NodeClass (AL2023),
// as internal/cloud/eks derives them with the AWS provider's own NewInstanceType.
func eksRegionTypes(region string) []*cloudprovider.InstanceType {
	if its, ok := eksTypeCache[region]; ok {
		return its
	}
	its, err := eks.InstanceTypes(region, eks.NodeClass{})
	if err != nil {
		panic(err)
	}
	eksTypeCache[region] = its
	return its
}
