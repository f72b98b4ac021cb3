package aks

import (
	"context"
	"math"
	"sort"

	azv1beta1 "github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	"github.com/Azure/karpenter-provider-azure/pkg/providers/allocationstrategy"
	"github.com/Azure/karpenter-provider-azure/pkg/providers/allocationstrategy/stages"
	"github.com/Azure/karpenter-provider-azure/pkg/utils/zones"
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// Launch is the Azure provider's Create up to the launch: resolveInstanceTypes (the options
// compatible with the NodeClaim, with an available compatible offering, whose allocatable
// holds its requests), then the default allocation strategy's ranking (lowest price, then spot
// before on-demand, then zonal before regional). The ranking shuffles offerings before its
// stable sort, so every offering ranked equal to the first is a possible launch; they are
// returned ordered by zone.
func (c *Cloud) Launch(options []*cloudprovider.InstanceType, reqs scheduling.Requirements, requests corev1.ResourceList, resolvable map[*cloudprovider.InstanceType]bool) (*cloudprovider.InstanceType, []*cloudprovider.Offering) {
	// The ranking puts the lowest price first, so only the candidates whose cheapest available
	// compatible offering has the lowest price can come first: the others are left out before
	// upstream's ranking sorts what remains (same first, a fraction of the work).
	var candidates []*cloudprovider.InstanceType
	lowest := math.MaxFloat64
	capacityType := reqs[karpv1.CapacityTypeLabelKey]
	for _, it := range options {
		// An option can only be a candidate at a price at most the lowest so far, and its
		// price is that of an available offering: one whose offerings are all dearer is
		// passed over without the resolve filter (options come cheapest first, so after
		// the first candidates most are).
		if lowest < math.MaxFloat64 && cheapestAvailable(it, capacityType) > lowest {
			continue
		}
		ok, known := resolvable[it]
		if !known {
			sg := cloud.SinglesFor(it)
			ok = cloud.CompatibleSingles(reqs, it.Requirements, sg.Requirements, wellKnownAndRestricted) && hasOffering(it, sg, reqs)
			if resolvable != nil {
				resolvable[it] = ok
			}
		}
		if !ok || !resources.Fits(requests, it.Allocatable()) {
			continue
		}
		switch p := cheapest(it, reqs, lowest); {
		case p < lowest:
			lowest, candidates = p, append(candidates[:0], it)
		case p == lowest:
			candidates = append(candidates, it)
		}
	}
	ranked := allocationstrategy.NewProvider().FilterInstanceOfferings(context.Background(), allocationstrategy.NewInstanceOfferings(candidates), reqs)
	if len(ranked) == 0 || len(ranked[0].Offerings) == 0 {
		return nil, nil
	}
	best := ranked[0]
	first := best.Offerings[0]
	var tied []*cloudprovider.Offering
	for _, o := range best.Offerings {
		if o.Price == first.Price && o.CapacityType() == first.CapacityType() && scopeOf(o) == scopeOf(first) {
			tied = append(tied, o)
		}
	}
	sort.SliceStable(tied, func(i, j int) bool { return tied[i].Zone() < tied[j].Zone() })
	return best.InstanceType, tied
}

// Rank is the Azure provider's offering rank stage (pkg/providers/allocationstrategy/stages,
// the default allocation strategy's ranking): the lowest price, then spot before on-demand,
// then zonal before regional, then the size name. Ties between zones are shuffled upstream.
func (c *Cloud) Rank(cands []cloud.InstanceOfferings) []cloud.InstanceOfferings {
	ios := make([]stages.InstanceOffering, len(cands))
	for i, c := range cands {
		ios[i] = stages.InstanceOffering{InstanceType: c.InstanceType, Offerings: c.Offerings}
	}
	ranked := stages.NewDefaultOfferingRankStage().Process(context.Background(), ios)
	out := make([]cloud.InstanceOfferings, len(ranked))
	for i, r := range ranked {
		out[i] = cloud.InstanceOfferings{InstanceType: r.InstanceType, Offerings: r.Offerings}
	}
	return out
}

// wellKnownAndRestricted is the label set of v1beta1.AllowUndefinedWellKnownAndRestrictedLabels
// in the Azure provider's own binary (its well-known labels, not the AWS ones this binary also
// links), computed once instead of on every call.
var wellKnownAndRestricted = wellKnownLabels().Union(azv1beta1.RestrictedLabels)

// hasOffering is len(it.Offerings.Compatible(reqs).Available()) > 0.
func hasOffering(it *cloudprovider.InstanceType, sg *cloud.InstanceTypeSingles, reqs scheduling.Requirements) bool {
	for _, o := range it.Offerings {
		if o.Available && cloud.CompatibleWellKnownSingles(reqs, o.Requirements, sg.Offering(o)) {
			return true
		}
	}
	return false
}

// cheapest is the lowest price, when it is at most bound, among the instance type's available
// offerings compatible with reqs (Offerings.Available().Compatible(reqs), as the allocation
// strategy's filter stage keeps them); math.MaxFloat64 when there is none. Offerings dearer
// than the bound are not looked at: the caller only keeps candidates at the lowest price.
func cheapest(it *cloudprovider.InstanceType, reqs scheduling.Requirements, bound float64) float64 {
	p := math.MaxFloat64
	var sg *cloud.InstanceTypeSingles
	for _, o := range it.Offerings {
		if !o.Available || o.Price > bound || o.Price >= p {
			continue
		}
		if sg == nil {
			sg = cloud.SinglesFor(it)
		}
		if cloud.CompatibleWellKnownSingles(reqs, o.Requirements, sg.Offering(o)) {
			p = o.Price
		}
	}
	return p
}

// cheapestAvailable is the lowest price among the instance type's available offerings that
// the capacity-type requirement ct (nil: none) does not rule out, a lower bound of cheapest's:
// an offering In one capacity type is compatible only with a requirement that has it
// (math.MaxFloat64 when none is left).
func cheapestAvailable(it *cloudprovider.InstanceType, ct *scheduling.Requirement) float64 {
	p := math.MaxFloat64
	for _, o := range cloud.SinglesFor(it).Available {
		if o.Price >= p || (ct != nil && o.CapacityType != "" && !ct.Has(o.CapacityType)) {
			continue
		}
		p = o.Price
	}
	return p
}

// scopeOf is the offering's placement scope (zonal or regional), the ranking's last criterion.
func scopeOf(o *cloudprovider.Offering) string { return zones.PlacementScopeForOffering(o) }
