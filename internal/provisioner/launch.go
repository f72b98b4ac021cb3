package provisioner

import (
	"fmt"
	"math"
	"sort"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// launch turns the scheduler's NodeClaims into what is launched: the provisioner orders each
// NodeClaim's options by price and keeps MaxInstanceTypes of them (dropping the NodeClaim
// when that breaks minValues, under the Strict policy), adds the instance-type and
// capacity-type requirements of those options, and the pool's cloud provider resolves the
// pool's instance types against the NodeClaim and launches the best-ranked offering of its
// allocation strategy (on Azure: lowest price, then spot before on-demand, then zonal before
// regional).
func launch(r result, launchers map[string]cloud.Launcher, relaxMinValues bool) *Result {
	out := &Result{PodErrors: r.podErrors}
	// NodeClaims with the same requirements and requests launch the same way.
	launches := map[string]*Launch{}
	for _, n := range r.nodeClaims {
		reqs := n.requirements
		opts := orderByPrice(n.instanceTypeOptions, reqs)
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
			l = allocate(launchers[n.template.nodePool.Name], opts, final, n.requests)
			launches[key] = l
		}
		nc.Launch = l
		out.NodeClaims = append(out.NodeClaims, nc)
	}
	return out
}

// orderByPrice is InstanceTypes.OrderByPrice: by the cheapest available compatible offering.
// Upstream sorts with sort.Slice; with equal prices its order depends on the input order,
// which a map iteration made random, so equal-priced options are ordered by name here.
func orderByPrice(its []*cloudprovider.InstanceType, reqs scheduling.Requirements) []*cloudprovider.InstanceType {
	out := make([]*cloudprovider.InstanceType, len(its))
	copy(out, its)
	price := make(map[*cloudprovider.InstanceType]float64, len(its))
	for _, it := range its {
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

// allocate is the cloud provider's launch choice for a NodeClaim (cloud.Launcher: on Azure,
// resolveInstanceTypes and its default allocation strategy's ranking).
func allocate(c cloud.Launcher, its []*cloudprovider.InstanceType, reqs scheduling.Requirements, requests corev1.ResourceList) *Launch {
	if c == nil {
		return nil
	}
	best, tied := c.Launch(its, reqs, requests)
	if best == nil || len(tied) == 0 {
		return nil
	}
	l := &Launch{InstanceType: best, Offering: tied[0]}
	for _, o := range tied {
		l.Zones = append(l.Zones, o.Zone())
	}
	return l
}
