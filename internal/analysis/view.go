package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

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
	// order lists the types with offerings by cheapest price, then name, then position: the
	// order sortCandidates gives candidates listed in position order.
	order []int32
}

// maxViews bounds the views one index keeps. Past it a view is built for its caller and
// dropped: a configuration with more distinct patterns still gets the same answers.
const maxViews = 64

// offeringPattern is a pattern's key: per class, whether it is compatible with the
// requirements judged on types whose zones are known, then the same for the other types.
type offeringPattern string

// patternOf judges every class of the index against reqs (for types whose zones are known)
// and against noZone (for the others), as admissibleClasses does per offering.
func (idx *typeIndex) patternOf(reqs, noZone scheduling.Requirements) offeringPattern {
	buf := make([]byte, 2*len(idx.classes))
	for c, creqs := range idx.classes {
		buf[c] = compatibleByte(reqs, creqs)
		buf[len(idx.classes)+c] = buf[c]
		if noZone != nil {
			buf[len(idx.classes)+c] = compatibleByte(noZone, creqs)
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
func (idx *typeIndex) view(rt *regionTypes, pat offeringPattern) *offeringView {
	idx.viewsMu.Lock()
	v := idx.views[pat]
	idx.viewsMu.Unlock()
	if v != nil {
		return v
	}
	v = buildView(idx, rt, pat)
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

func buildView(idx *typeIndex, rt *regionTypes, pat offeringPattern) *offeringView {
	types := rt.result.InstanceTypes
	total := 0
	for i := range types {
		total += len(idx.facts[i])
	}
	v := &offeringView{offs: make([]cloudprovider.Offerings, idx.n), classes: make([][]int32, idx.n), cheapest: make([]float64, idx.n)}
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

// viewsState is the part of a type index that holds its views.
type viewsState struct {
	viewsMu sync.Mutex
	views   map[offeringPattern]*offeringView
}
