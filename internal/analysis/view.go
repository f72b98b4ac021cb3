package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// offeringView is every type's admitted offerings under one offering pattern: which offering
// classes a pool's requirements accept. Pools of a plan share few patterns (on-demand, spot,
// both; a zone or two), so a view is built once per type index and pattern, and a pool reads
// it per type instead of judging each offering. The slices are shared by every analysis that
// uses the view: nothing may write to them.
type offeringView struct {
	// offs is each type's available offerings that the pattern accepts, in Offerings order (nil
	// when none); classes is each one's index class.
	offs    []cloudprovider.Offerings
	classes [][]int32
	// cheapest is the price of offs[i].Cheapest() (+Inf when offs[i] is empty).
	cheapest []float64
	// cuts holds each type's lowest prices over its offerings of a capacity slot (all, spot,
	// on-demand; see slotOf), for launchChoiceOf and costAtLimitsOf.
	cuts [slots][]priceCut
	// classSet is, per type, the set of index classes of offs (bit c for class c), when the
	// index has at most 64 classes (manyClasses false): offeringZones reads the zones of
	// classes, not of offerings.
	classSet    []uint64
	manyClasses bool
	// order lists the types with offerings by cheapest price, then name, then position: the
	// order sortCandidates gives candidates listed in position order.
	order []int32
}

// priceCut is how many offerings a type has in a capacity slot, their lowest price and the
// lowest that is not a penalty price (+Inf when there is none).
type priceCut struct {
	n                  int
	lowest, lowestPaid float64
}

// The capacity slots a view keeps price cuts for.
const (
	slotAll = iota
	slotSpot
	slotOnDemand
	slots
)

// slotOf is the slot of a capacity type ("" for all); false for one no slot keeps.
func slotOf(ct string) (int, bool) {
	switch ct {
	case "":
		return slotAll, true
	case karpv1.CapacityTypeSpot:
		return slotSpot, true
	case karpv1.CapacityTypeOnDemand:
		return slotOnDemand, true
	}
	return 0, false
}

// maxViews bounds the views one index keeps (a westeurope view is about 0.25 MB; an index is per
// region and node class). Past it a view is built for its caller and dropped: a configuration
// with more distinct patterns still gets the same answers, more slowly.
const maxViews = 16

// offeringPattern is a pattern's key: per class, whether it is compatible with the
// requirements judged on types whose zones are known, then the same for the other types.
type offeringPattern string

// patternOf judges every class of the index against reqs (for types whose zones are known)
// and against noZone (for the others), as admissibleClasses does per offering; with noZone nil,
// every type's offerings are judged against reqs.
func (idx *typeIndex) patternOf(reqs, noZone scheduling.Requirements) offeringPattern {
	buf := make([]byte, 2*len(idx.classes))
	for c, creqs := range idx.classes {
		// A half that no type reads stays 0, so that the key is the same for one pattern.
		if idx.classJudged[c]&judgedWithZone != 0 {
			buf[c] = compatibleByte(reqs, creqs)
		}
		if idx.classJudged[c]&judgedWithoutZone != 0 {
			if noZone != nil {
				buf[len(idx.classes)+c] = compatibleByte(noZone, creqs)
			} else {
				buf[len(idx.classes)+c] = compatibleByte(reqs, creqs)
			}
		}
	}
	return offeringPattern(buf)
}

func compatibleByte(reqs, class scheduling.Requirements) byte {
	if reqs.IsCompatible(class, scheduling.AllowUndefinedWellKnownLabels) {
		return 1
	}
	return 0
}

// view returns the index's view for the pattern, building it on first use.
func (idx *typeIndex) view(pat offeringPattern) *offeringView {
	idx.viewsMu.Lock()
	v := idx.views[pat]
	idx.viewsMu.Unlock()
	if v != nil {
		return v
	}
	v = buildView(idx, pat)
	idx.viewsMu.Lock()
	defer idx.viewsMu.Unlock()
	if old := idx.views[pat]; old != nil {
		return old // built concurrently: keep one, so that every caller shares its slices
	}
	if len(idx.views) < maxViews {
		if idx.views == nil {
			idx.views = map[offeringPattern]*offeringView{}
		}
		idx.views[pat] = v
	}
	return v
}

func buildView(idx *typeIndex, pat offeringPattern) *offeringView {
	types := idx.types
	total := 0
	for i := range types {
		total += len(idx.facts[i])
	}
	v := &offeringView{offs: make([]cloudprovider.Offerings, idx.n), classes: make([][]int32, idx.n), cheapest: make([]float64, idx.n)}
	for k := range v.cuts {
		v.cuts[k] = make([]priceCut, idx.n)
	}
	v.manyClasses = len(idx.classes) > 64
	if !v.manyClasses {
		v.classSet = make([]uint64, idx.n)
	}
	buf := make([]*cloudprovider.Offering, 0, total)
	classBuf := make([]int32, 0, total)
	nc := len(idx.classes)
	for i := range types {
		accept := pat[:nc]
		if idx.zonesUnknown.Has(i) {
			accept = pat[nc:]
		}
		start := len(buf)
		for j, f := range idx.facts[i] {
			if f.available && accept[f.class] == 1 {
				buf = append(buf, types[i].Offerings[j])
				classBuf = append(classBuf, f.class)
			}
		}
		v.cheapest[i] = math.Inf(1)
		for k := range v.cuts {
			v.cuts[k][i] = priceCut{lowest: math.Inf(1), lowestPaid: math.Inf(1)}
		}
		for k, of := range buf[start:] {
			class := classBuf[start+k]
			ct := idx.classCapacity[class]
			// As Candidate.priceAt: the spot record for spot, the on-demand one otherwise.
			paid := !types[i].OnDemand.Penalty()
			if ct == karpv1.CapacityTypeSpot {
				paid = !types[i].Spot.Penalty()
			}
			v.cuts[slotAll][i].add(of.Price, paid)
			if !v.manyClasses {
				v.classSet[i] |= 1 << uint(class)
			}
			if slot, ok := slotOf(ct); ok {
				v.cuts[slot][i].add(of.Price, paid)
			}
		}
		if len(buf) > start {
			v.offs[i] = cloudprovider.Offerings(buf[start:len(buf):len(buf)])
			v.classes[i] = classBuf[start:len(classBuf):len(classBuf)]
			v.cheapest[i] = v.offs[i].Cheapest().Price
			v.order = append(v.order, int32(i))
		}
	}
	slices.SortFunc(v.order, func(a, b int32) int {
		if v.cheapest[a] != v.cheapest[b] {
			return cmp.Compare(v.cheapest[a], v.cheapest[b])
		}
		if c := strings.Compare(idx.names[a], idx.names[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return v
}

func (c *priceCut) add(price float64, paid bool) {
	c.n++
	c.lowest = math.Min(c.lowest, price)
	if paid {
		c.lowestPaid = math.Min(c.lowestPaid, price)
	}
}

// viewsState is the part of a type index that holds its views.
type viewsState struct {
	viewsMu sync.Mutex
	views   map[offeringPattern]*offeringView
}
