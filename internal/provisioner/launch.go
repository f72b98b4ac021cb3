package provisioner

import (
	"context"
	"fmt"
	"math"
	"sort"

	azv1beta1 "github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	"github.com/Azure/karpenter-provider-azure/pkg/providers/allocationstrategy"
	"github.com/Azure/karpenter-provider-azure/pkg/utils/zones"
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"
)

// launch turns the scheduler's NodeClaims into what is launched: the provisioner orders each
// NodeClaim's options by price and keeps MaxInstanceTypes of them (dropping the NodeClaim
// when that breaks minValues, under the Strict policy), adds the instance-type and
// capacity-type requirements of those options, and the Azure provider resolves the pool's
// instance types against the NodeClaim and launches the best-ranked offering of its
// allocation strategy (lowest price, then spot before on-demand, then zonal before regional).
func launch(r result, relaxMinValues bool) *Result {
	out := &Result{PodErrors: r.podErrors}
	// NodeClaims with the same requirements and requests launch the same way.
	launches := map[string]*Launch{}
	// An option's price depends on the requirements only; NodeClaims share them. So does
	// whether the provider's resolve filter admits it, but for its instance-type list (see
	// resolvable).
	prices := map[string]map[*cloudprovider.InstanceType]float64{}
	resolvable := map[string]map[*cloudprovider.InstanceType]bool{}
	for _, n := range r.nodeClaims {
		reqs := n.requirements
		rk := requirementsKey(reqs)
		if prices[rk] == nil {
			prices[rk] = map[*cloudprovider.InstanceType]float64{}
		}
		opts := orderByPrice(n.instanceTypeOptions, reqs, prices[rk])
		if len(opts) > MaxInstanceTypes {
			opts = opts[:MaxInstanceTypes]
		}
		if reqs.HasMinValues() && !relaxMinValues {
			if _, _, err := cloudprovider.InstanceTypes(opts).SatisfiesMinValues(reqs); err != nil {
				for _, p := range n.pods {
					out.PodErrors[p] = fmt.Errorf("pod didn't schedule because NodePool %q couldn't meet minValues requirements, validating minValues, %w", n.template.nodePool.Name, err)
				}
				continue
			}
		}
		final := scheduling.NewRequirements(reqs.Values()...)
		names := make([]string, len(opts))
		for i, it := range opts {
			names[i] = it.Name
		}
		final.Add(scheduling.NewRequirementWithFlexibility(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpIn, reqs.Get(corev1.LabelInstanceTypeStable).MinValues, names...))
		var capacityTypes []string
		seen := map[string]bool{}
		for _, it := range opts {
			for _, o := range it.Offerings.Available().Compatible(reqs) {
				if ct := o.CapacityType(); !seen[ct] {
					seen[ct] = true
					capacityTypes = append(capacityTypes, ct)
				}
			}
		}
		if len(capacityTypes) > 0 {
			final.Add(scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, capacityTypes...))
		}
		// The scheduling-simulation keys never reach the NodeClaim.
		delete(final, karpv1.NodeRegisteredLabelKey)
		delete(final, karpv1.NodeInitializedLabelKey)
		nc := &NodeClaim{NodePool: n.template.nodePool.Name, Pods: n.pods, Requirements: final, InstanceTypeOptions: opts, Requests: n.requests}
		// The provider filters the pool's instance types; only the NodeClaim's options can pass
		// its instance-type requirement, so those are the ones to look at.
		key := requirementsKey(final) + "\x02" + resources.String(n.requests)
		l, ok := launches[key]
		if !ok {
			without := make(scheduling.Requirements, len(final))
			for k, r := range final {
				if k != corev1.LabelInstanceTypeStable {
					without[k] = r
				}
			}
			rk := requirementsKey(without)
			if resolvable[rk] == nil {
				resolvable[rk] = map[*cloudprovider.InstanceType]bool{}
			}
			l = allocate(opts, final, n.requests, resolvable[rk])
			launches[key] = l
		}
		nc.Launch = l
		out.NodeClaims = append(out.NodeClaims, nc)
	}
	return out
}

// orderByPrice is InstanceTypes.OrderByPrice: by the cheapest available compatible offering.
// Upstream sorts with sort.Slice; with equal prices its order depends on the input order,
// which a map iteration made random, so equal-priced options are ordered by name here. price
// memoises the prices for these requirements.
func orderByPrice(its []*cloudprovider.InstanceType, reqs scheduling.Requirements, price map[*cloudprovider.InstanceType]float64) []*cloudprovider.InstanceType {
	out := make([]*cloudprovider.InstanceType, len(its))
	copy(out, its)
	for _, it := range its {
		if _, ok := price[it]; ok {
			continue
		}
		p := math.MaxFloat64
		for _, of := range it.Offerings {
			if of.Available && of.Price < p && reqs.IsCompatible(of.Requirements, scheduling.AllowUndefinedWellKnownLabels) {
				p = of.Price
			}
		}
		price[it] = p
	}
	sort.SliceStable(out, func(i, j int) bool {
		if price[out[i]] != price[out[j]] {
			return price[out[i]] < price[out[j]]
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// allocate is the Azure provider's Create up to the launch: resolveInstanceTypes (the pool's
// instance types compatible with the NodeClaim, with an available compatible offering, whose
// allocatable holds its requests), then the default allocation strategy's ranking.
// resolvable memoises the first two conditions for requirements equal to reqs but for the
// instance-type list: every option is on that list and passed the NodeClaim's own instance-type
// requirement, and offerings carry no instance-type label, so the list never decides them.
func allocate(its []*cloudprovider.InstanceType, reqs scheduling.Requirements, requests corev1.ResourceList, resolvable map[*cloudprovider.InstanceType]bool) *Launch {
	var candidates []*cloudprovider.InstanceType
	for _, it := range its {
		ok, known := resolvable[it]
		if !known {
			ok = reqs.Compatible(it.Requirements, allowUndefinedWellKnownAndRestricted) == nil && len(it.Offerings.Compatible(reqs).Available()) > 0
			resolvable[it] = ok
		}
		if ok && resources.Fits(requests, it.Allocatable()) {
			candidates = append(candidates, it)
		}
	}
	ranked := allocationstrategy.NewProvider().FilterInstanceOfferings(context.Background(), allocationstrategy.NewInstanceOfferings(candidates), reqs)
	if len(ranked) == 0 || len(ranked[0].Offerings) == 0 {
		return nil
	}
	best := ranked[0]
	// The ranking shuffles offerings before its stable sort: every offering ranked equal to
	// the first is a possible launch.
	first := best.Offerings[0]
	var tied []*cloudprovider.Offering
	for _, o := range best.Offerings {
		if o.Price == first.Price && o.CapacityType() == first.CapacityType() && scopeOf(o) == scopeOf(first) {
			tied = append(tied, o)
		}
	}
	sort.SliceStable(tied, func(i, j int) bool { return tied[i].Zone() < tied[j].Zone() })
	l := &Launch{InstanceType: best.InstanceType, Offering: tied[0]}
	for _, o := range tied {
		l.Zones = append(l.Zones, o.Zone())
	}
	return l
}

// wellKnownAndRestricted is the label set of v1beta1.AllowUndefinedWellKnownAndRestrictedLabels,
// computed once instead of on every call.
var wellKnownAndRestricted = karpv1.WellKnownLabels.Union(azv1beta1.RestrictedLabels)

func allowUndefinedWellKnownAndRestricted(o *scheduling.CompatibilityOptions) {
	o.AllowUndefined = wellKnownAndRestricted
}

// scopeOf is the offering's placement scope (zonal or regional), the ranking's last criterion.
func scopeOf(o *cloudprovider.Offering) string { return zones.PlacementScopeForOffering(o) }
