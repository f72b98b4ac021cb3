package cloud

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// Karpenter's scheduler and a cloud's launch ask the same two questions of requirement sets
// for every option and offering: do they intersect, are they compatible. Upstream answers
// with an error and a freshly allocated set of shared keys each time; these answer the same
// yes or no without allocating (the emulation asks hundreds of thousands of times a round).

// Intersects is existing.Intersects(incoming) == nil: every key both sets have must
// intersect, except where both are NotIn or DoesNotExist.
func Intersects(existing, incoming scheduling.Requirements) bool {
	small, large, smallIsExisting := existing, incoming, true
	if len(small) > len(large) {
		small, large, smallIsExisting = large, small, false
	}
	for key, a := range small {
		b, ok := large[key]
		if !ok {
			continue
		}
		e, in := a, b
		if !smallIsExisting {
			e, in = b, a
		}
		if !e.HasIntersection(in) && !(excludes(in) && excludes(e)) {
			return false
		}
	}
	return true
}

// excludes reports whether a requirement's operator is NotIn or DoesNotExist.
func excludes(r *scheduling.Requirement) bool {
	op := r.Operator()
	return op == corev1.NodeSelectorOpNotIn || op == corev1.NodeSelectorOpDoesNotExist
}

// Compatible is r.Compatible(incoming, option) == nil where the option allows the undefined
// labels in allowUndefined: a key incoming has that r does not is allowed when it is in
// allowUndefined or incoming excludes values (NotIn, DoesNotExist); then the two must
// intersect.
func Compatible(r, incoming scheduling.Requirements, allowUndefined sets.Set[string]) bool {
	return definedOrAllowed(r, incoming, allowUndefined) && Intersects(r, incoming)
}

// definedOrAllowed is Compatible's first half: every key of incoming is defined by r, allowed
// undefined, or excludes values.
func definedOrAllowed(r, incoming scheduling.Requirements, allowUndefined sets.Set[string]) bool {
	for key, in := range incoming {
		if allowUndefined.Has(key) {
			continue
		}
		if _, ok := r[key]; ok || excludes(in) {
			continue
		}
		return false
	}
	return true
}

// CompatibleWellKnown is r.IsCompatible(incoming, scheduling.AllowUndefinedWellKnownLabels).
func CompatibleWellKnown(r, incoming scheduling.Requirements) bool {
	return Compatible(r, incoming, karpv1.WellKnownLabels)
}

// Singles are the keys of a requirement set that are In exactly one value, with the value: a
// catalog's instance types and offerings mostly have such labels, and for them intersecting
// is one lookup (In{v} meets r exactly when r.Has(v); a concrete set never has bounds).
type Singles map[string]string

// SinglesOf lists the set's single-valued In keys.
func SinglesOf(reqs scheduling.Requirements) Singles {
	out := make(Singles, len(reqs))
	for k, r := range reqs {
		if r.Operator() == corev1.NodeSelectorOpIn && r.Len() == 1 {
			out[k] = r.Values()[0]
		}
	}
	return out
}

// IntersectsSingles is Intersects(existing, incoming) where singles are existing's
// (SinglesOf(existing)).
func IntersectsSingles(existing scheduling.Requirements, singles Singles, incoming scheduling.Requirements) bool {
	if len(existing) < len(incoming) {
		return Intersects(existing, incoming)
	}
	for key, in := range incoming {
		if v, ok := singles[key]; ok {
			if !in.Has(v) { // In{v} is not NotIn or DoesNotExist: no exception applies
				return false
			}
			continue
		}
		e, ok := existing[key]
		if !ok {
			continue
		}
		if !e.HasIntersection(in) && !(excludes(in) && excludes(e)) {
			return false
		}
	}
	return true
}

// CompatibleWellKnownSingles is CompatibleWellKnown(r, incoming) where singles are
// incoming's (SinglesOf(incoming)).
func CompatibleWellKnownSingles(r, incoming scheduling.Requirements, singles Singles) bool {
	return CompatibleSingles(r, incoming, singles, karpv1.WellKnownLabels)
}

// CompatibleSingles is Compatible(r, incoming, allowUndefined) where singles are incoming's
// (SinglesOf(incoming)).
func CompatibleSingles(r, incoming scheduling.Requirements, singles Singles, allowUndefined sets.Set[string]) bool {
	if !definedOrAllowed(r, incoming, allowUndefined) {
		return false
	}
	for key, in := range incoming {
		e, ok := r[key]
		if !ok {
			continue
		}
		if v, ok := singles[key]; ok {
			if !e.Has(v) { // incoming In{v} is not NotIn or DoesNotExist
				return false
			}
			continue
		}
		if !e.HasIntersection(in) && !(excludes(in) && excludes(e)) {
			return false
		}
	}
	return true
}

// InstanceTypeSingles are an instance type's single-valued labels and its offerings'.
type InstanceTypeSingles struct {
	Requirements Singles
	offers       map[*cloudprovider.Offering]Singles
	// Available are the available offerings' prices and single capacity types, in order.
	Available []OfferingPrice
}

// OfferingPrice is an offering's price and its capacity type when its requirement is In one
// value ("" otherwise).
type OfferingPrice struct {
	Price        float64
	CapacityType string
}

// Offering is the offering's singles (computed anew for an offering not in the list).
func (s *InstanceTypeSingles) Offering(of *cloudprovider.Offering) Singles {
	if sg, ok := s.offers[of]; ok {
		return sg
	}
	return SinglesOf(of.Requirements)
}

var (
	singlesMu    sync.Mutex
	singlesCache = map[*cloudprovider.InstanceType]*InstanceTypeSingles{}
)

// singlesBound caps the cache: about 5 kB an instance type, a region's list about 1,000 types,
// so at most about 40 MB for a few regions' lists at a time.
const singlesBound = 1 << 13

// SinglesFor is the instance type's singles and its offerings'. Instance types come from
// long-lived per-region lists and their requirements never change, so they are kept across
// calls (bounded by singlesBound; the cache holds the instance types, so an address is never
// reused).
func SinglesFor(it *cloudprovider.InstanceType) *InstanceTypeSingles {
	singlesMu.Lock()
	defer singlesMu.Unlock()
	if s, ok := singlesCache[it]; ok {
		return s
	}
	if len(singlesCache) >= singlesBound {
		clear(singlesCache)
	}
	s := &InstanceTypeSingles{Requirements: SinglesOf(it.Requirements), offers: make(map[*cloudprovider.Offering]Singles, len(it.Offerings))}
	for _, of := range it.Offerings {
		sg := SinglesOf(of.Requirements)
		s.offers[of] = sg
		if of.Available {
			s.Available = append(s.Available, OfferingPrice{Price: of.Price, CapacityType: sg[karpv1.CapacityTypeLabelKey]})
		}
	}
	singlesCache[it] = s
	return s
}
