package karpenter

import (
	"fmt"
	"math"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// launch turns the scheduler's NodeClaims into what is launched. The provisioner orders each
// NodeClaim's options by price and keeps MaxInstanceTypes of them. Under the Strict policy it
// drops the NodeClaim when that breaks minValues. It adds the instance-type and
// capacity-type requirements of the options kept. Then the pool's cloud provider resolves
// the pool's instance types against the NodeClaim. It launches the best-ranked offering of
// its allocation strategy. On Azure that is the lowest price, then spot before on-demand,
// then zonal before regional.
func launch(r result, launchers map[string]cloud.Launcher, relaxMinValues bool, cache *compatCache) *Result {
	out := &Result{PodErrors: r.podErrors}
	// NodeClaims with the same requirements and requests launch the same way.
	launches := map[string]*Launch{}
	// An option's price depends on the requirements only, and NodeClaims share them. So does
	// the provider's resolve filter, apart from the instance-type list (see resolvable).
	prices := map[string]map[*cloudprovider.InstanceType]optionOffers{}
	resolvable := map[string]map[*cloudprovider.InstanceType]bool{}
	var keyBuf []byte
	for _, n := range r.nodeClaims {
		reqs := n.requirements
		rk := requirementsKey(reqs)
		if prices[rk] == nil {
			prices[rk] = map[*cloudprovider.InstanceType]optionOffers{}
		}
		offers := prices[rk]
		opts := orderByPrice(n.instanceTypeOptions, reqs, offers, cache)
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
			for _, ct := range offers[it].capacityTypes {
				if !seen[ct] {
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
		nc := &NodeClaim{NodePool: n.template.nodePool.Name, Pods: n.pods, Requirements: final, InstanceTypeOptions: opts, Requests: n.requests, seq: n.seq}
		// The provider filters the pool's instance types. Only the NodeClaim's options can
		// pass its instance-type requirement, so those are the ones to look at.
		// final is reqs (rk) with the options' names and capacity types. The options, in
		// order, determine them, so the key names the options by their index.
		keyBuf = append(keyBuf[:0], rk...)
		keyBuf = append(keyBuf, 2)
		keyBuf = cache.appendOptionIDs(keyBuf, opts)
		keyBuf = append(keyBuf, 2)
		keyBuf = append(keyBuf, resources.String(n.requests)...)
		key := string(keyBuf)
		l, ok := launches[key]
		if !ok {
			without := make(scheduling.Requirements, len(final))
			for k, r := range final {
				if k != corev1.LabelInstanceTypeStable {
					without[k] = r
				}
			}
			rk := n.template.nodePool.Name + "\x00" + requirementsKey(without)
			if resolvable[rk] == nil {
				resolvable[rk] = map[*cloudprovider.InstanceType]bool{}
			}
			l = allocate(launchers[n.template.nodePool.Name], opts, final, n.requests, resolvable[rk])
			launches[key] = l
		}
		nc.Launch = l
		out.NodeClaims = append(out.NodeClaims, nc)
	}
	return out
}

// optionOffers is what the launch needs of an option's offerings: those available and
// compatible with a NodeClaim's requirements (Offerings.Available().Compatible(reqs)
// upstream). It holds their lowest price, math.MaxFloat64 when none, and their capacity
// types in offering order.
type optionOffers struct {
	price         float64
	capacityTypes []string
}

// orderByPrice is InstanceTypes.OrderByPrice: by the cheapest available compatible offering.
// Upstream sorts with sort.Slice. With equal prices its order depends on the input order,
// which a map iteration made random. So equal-priced options are ordered by name here.
// offers memoises the options' offerings for these requirements.
func orderByPrice(its []*cloudprovider.InstanceType, reqs scheduling.Requirements, offers map[*cloudprovider.InstanceType]optionOffers, cache *compatCache) []*cloudprovider.InstanceType {
	out := make([]*cloudprovider.InstanceType, len(its))
	copy(out, its)
	var memo *reqMemo
	for _, it := range its {
		if _, ok := offers[it]; ok {
			continue
		}
		o := optionOffers{price: math.MaxFloat64}
		// An instance type whose available offerings form one allocatable group has them as
		// its slots, in order. So the memo's offering bits answer CompatibleWellKnown for them.
		if i, ok := cache.ix.idx[it]; ok && len(cache.ix.groups[i]) == 1 {
			if memo == nil {
				memo = cache.forReqs(reqs)
			}
			g := cache.ix.groups[i][0]
			for j := g.from; j < g.to; j++ {
				if !memo.off.has(int(j)) {
					continue
				}
				slot := &cache.ix.slots[j]
				o.price = min(o.price, slot.offering.Price)
				if ct := slot.capacityTypeOf(); !slices.Contains(o.capacityTypes, ct) {
					o.capacityTypes = append(o.capacityTypes, ct)
				}
			}
			offers[it] = o
			continue
		}
		for _, of := range it.Offerings {
			if !of.Available || !cloud.CompatibleWellKnown(reqs, of.Requirements) {
				continue
			}
			o.price = min(o.price, of.Price)
			if ct := of.CapacityType(); !slices.Contains(o.capacityTypes, ct) {
				o.capacityTypes = append(o.capacityTypes, ct)
			}
		}
		offers[it] = o
	}
	// Price then name is a total order, since names are unique. So any sort gives the same
	// result. The prices are looked up once, not in every comparison.
	priced := make([]pricedOption, len(out))
	for i, it := range out {
		priced[i] = pricedOption{it, offers[it].price}
	}
	slices.SortFunc(priced, func(a, b pricedOption) int {
		if a.price != b.price {
			if a.price < b.price {
				return -1
			}
			return 1
		}
		return strings.Compare(a.it.Name, b.it.Name)
	})
	for i, p := range priced {
		out[i] = p.it
	}
	return out
}

type pricedOption struct {
	it    *cloudprovider.InstanceType
	price float64
}

// allocate is the cloud provider's launch choice for a NodeClaim (cloud.Launcher). On Azure it
// is resolveInstanceTypes and the default allocation strategy's ranking. resolvable memoises
// the provider's resolve filter for requirements equal to reqs but for the instance-type list
// (see cloud.Launcher).
func allocate(c cloud.Launcher, its []*cloudprovider.InstanceType, reqs scheduling.Requirements, requests corev1.ResourceList, resolvable map[*cloudprovider.InstanceType]bool) *Launch {
	if c == nil {
		return nil
	}
	best, tied := c.Launch(its, reqs, requests, resolvable)
	if best == nil || len(tied) == 0 {
		return nil
	}
	l := &Launch{InstanceType: best, Offering: tied[0]}
	for _, o := range tied {
		l.Zones = append(l.Zones, cloud.ZoneOf(o))
	}
	return l
}
