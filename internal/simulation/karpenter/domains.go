package karpenter

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// domainIndex is each topology key's domains, with the taint sets of the pools offering them.
// They come from every NodePool's requirements intersected with each of its instance
// types', and from the values its own In requirements name. Pods spread or (anti-)affine
// over a few keys only, such as zone and hostname. So a key's domains are collected when a
// topology group first asks for them, not for every label key of the catalog. For one key
// the pools are visited in order. The domains are inserted as collecting all keys at once
// would insert them.
type domainIndex struct {
	pools []*karpv1.NodePool
	its   map[string][]*cloudprovider.InstanceType
	bases []scheduling.Requirements
	byKey map[string]domainGroup
	done  map[string]bool
	// mu guards byKey and done: a Memo shares an index between Solves.
	mu sync.Mutex
}

func newDomainIndex(pools []*karpv1.NodePool, its map[string][]*cloudprovider.InstanceType) *domainIndex {
	d := &domainIndex{pools: pools, its: its, byKey: map[string]domainGroup{}, done: map[string]bool{}}
	for _, np := range pools {
		r := scheduling.NewNodeSelectorRequirementsWithMinValues(np.Spec.Template.Spec.Requirements...)
		r.Add(scheduling.NewLabelRequirements(np.Spec.Template.Labels).Values()...)
		d.bases = append(d.bases, r)
	}
	return d
}

// get is the key's domains (nil when no pool or instance type has the key).
func (d *domainIndex) get(key string) domainGroup {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done[key] {
		return d.byKey[key]
	}
	var g domainGroup
	add := func(domain string, taints []corev1.Taint) {
		if g == nil {
			g = domainGroup{}
		}
		g.insert(domain, taints...)
	}
	for i, np := range d.pools {
		taints := np.Spec.Template.Spec.Taints
		list := d.its[np.Name]
		breq, has := d.bases[i][key]
		// Per instance type this is the pool's requirements added to the instance type's, as
		// upstream builds that set for each one. Shared keys intersect. The others keep their
		// own values, and for the pool's keys those are the same for every instance type.
		if has && len(list) > 0 {
			for _, v := range breq.Values() {
				add(v, taints)
			}
		}
		if !has {
			// Every value an instance type of the list has for the key, once each.
			var seen map[string]bool
			for _, it := range list {
				r, ok := it.Requirements[key]
				if !ok {
					continue
				}
				if seen == nil {
					seen = map[string]bool{}
					if g == nil {
						g = domainGroup{}
					}
				}
				for _, v := range r.Values() {
					if !seen[v] {
						seen[v] = true
						add(v, taints)
					}
				}
			}
		}
		if has {
			for _, it := range list {
				r, ok := it.Requirements[key]
				if !ok {
					continue
				}
				// An instance type's label In one value v meets the pool's requirement in v
				// exactly when the requirement has v (cloud.Singles). So no set is built for it.
				if r.Operator() == corev1.NodeSelectorOpIn && r.Len() == 1 {
					if v := r.Values()[0]; breq.Has(v) {
						add(v, taints)
					}
					continue
				}
				for _, v := range breq.Intersection(r).Values() {
					add(v, taints)
				}
			}
			if breq.Operator() == corev1.NodeSelectorOpIn {
				if g == nil {
					g = domainGroup{}
				}
				for _, v := range breq.Values() {
					add(v, taints)
				}
			}
		}
	}
	d.byKey[key], d.done[key] = g, true
	return g
}
