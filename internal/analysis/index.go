package analysis

import (
	"slices"
	"sort"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/bitset"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// typeIndex answers regionTypes.admissible for every instance type of a region at once, with
// the same result. Karpenter's Requirements.Intersects is a conjunction over the keys both sides
// define, and the instance types of a region share few distinct requirements per key (two
// architectures, a few dozen families, ...), so each distinct (key, requirement) is judged once
// per call instead of once per type; offerings likewise share a few distinct requirement sets
// (zone × capacity type × placement), each judged once. A plan analyses every NodePool this way
// in well under a millisecond instead of tens of milliseconds.
type typeIndex struct {
	n     int
	words int
	// groups lists, per label key, each distinct requirement the types have on it with the set
	// of types that have exactly that requirement.
	groups map[string][]reqGroup
	// zonesUnknown is the set of types whose zone requirement is not judged on their offerings
	// (zonesUnjudged; see admissible).
	zonesUnknown bitset.Set
	// facts gives, per type and offering (in Offerings order), the index of its distinct
	// requirement set in classes and whether it is available: a pool's checks read them,
	// computed once per region and node class, instead of asking each offering per pool
	// (Offering.CapacityType allocates at each call).
	facts   [][]offeringFacts
	classes []scheduling.Requirements
	// classCapacity is each class's capacity type; classSeen says on which kinds of type it
	// occurs (seenZonesKnown, seenZonesUnknown).
	classCapacity []string
	classSeen     []uint8
	// classJudged says against which requirements a class's offerings are judged: with the
	// zone requirement (types not in zonesUnknown), without it (the others), or both.
	classJudged []uint8
	// position is each type's index in the listing, names its name; namesSorted says the
	// listing is in name order (skuNames reads the names without sorting then).
	position    map[*cloud.InstanceType]int
	names       []string
	namesSorted bool
	// sizeRank orders the types by vCPUs, then memory (largerCapacity); equal sizes share a rank.
	sizeRank []int32
	// types is the listing the positions are in.
	types []*cloud.InstanceType
	// classZone is the value Requirement.Any gives for each class's zone requirement, when
	// that value is fixed (classZoneFixed): one zone (In), or "" (DoesNotExist). Any picks a
	// random value for the other operators, so those are asked per offering, as before.
	classZone      []string
	classZoneFixed []bool
	// classRank is, per class, the id of its requirements without the zone: classes that differ
	// only in zone share it, and launchChoiceOf ranks one offering of a type per id.
	classRank []int32
	// unfixedZones is the set of classes (bit c for class c < 64) whose zone is not fixed.
	unfixedZones uint64
	// gpu is the set of types with a nonzero quantity of some resource in gpuResources (the
	// cloud's GPU resources when the index was built).
	gpu          bitset.Set
	gpuResources []string

	viewsState
}

// offeringFacts are what the per-pool checks ask of an offering.
type offeringFacts struct {
	class     int32
	available bool
}

type reqGroup struct {
	req     *scheduling.Requirement
	members bitset.Set
}

func (rt *regionTypes) index() *typeIndex {
	rt.indexOnce.Do(func() { rt.idx = buildTypeIndex(rt) })
	return rt.idx
}

func buildTypeIndex(rt *regionTypes) *typeIndex {
	types := rt.result.InstanceTypes
	idx := &typeIndex{n: len(types), groups: map[string][]reqGroup{},
		facts: make([][]offeringFacts, len(types)), position: make(map[*cloud.InstanceType]int, len(types))}
	idx.words = (idx.n + 63) / 64
	idx.zonesUnknown = bitset.New(idx.n)
	idx.types = types
	idx.gpu = bitset.New(idx.n)
	idx.gpuResources = cloud.VocabularyOf(rt.cloud).GPUResources
	// The maps are keyed by canonical bytes built in one reused buffer: a lookup with
	// string(buf) does not allocate, so only a new key costs an allocation.
	groupOf := map[string]int{} // key, canonical requirement -> position in groups[key]
	classOf := map[string]int32{}
	rankOf := map[string]int32{}
	var buf []byte
	for i, it := range types {
		if zonesUnjudged(it) {
			idx.zonesUnknown.Add(i)
		}
		for key, r := range it.Requirements {
			buf = appendCanonical(append(append(buf[:0], key...), 0), r)
			g, ok := groupOf[string(buf)]
			if !ok {
				g = len(idx.groups[key])
				groupOf[string(buf)] = g
				idx.groups[key] = append(idx.groups[key], reqGroup{req: r, members: bitset.New(idx.n)})
			}
			idx.groups[key][g].members.Add(i)
		}
		idx.position[it] = i
		idx.names = append(idx.names, it.Name)
		if hasGPU(it, idx.gpuResources) {
			idx.gpu.Add(i)
		}
		facts := make([]offeringFacts, len(it.Offerings))
		for j, of := range it.Offerings {
			buf = appendCanonicalSet(buf[:0], of.Requirements, "")
			id, ok := classOf[string(buf)]
			if !ok {
				id = int32(len(idx.classes))
				classOf[string(buf)] = id
				idx.classes = append(idx.classes, of.Requirements)
				// The capacity type is a function of the requirements: asked once per class.
				idx.classCapacity = append(idx.classCapacity, of.CapacityType())
				idx.classSeen = append(idx.classSeen, 0)
				idx.classJudged = append(idx.classJudged, 0)
				zone, fixed := fixedZone(of.Requirements)
				idx.classZone = append(idx.classZone, zone)
				idx.classZoneFixed = append(idx.classZoneFixed, fixed)
				if !fixed && id < 64 {
					idx.unfixedZones |= 1 << uint(id)
				}
				rankKey := string(appendCanonicalSet(nil, of.Requirements, corev1.LabelTopologyZone))
				r, ok := rankOf[rankKey]
				if !ok {
					r = int32(len(rankOf))
					rankOf[rankKey] = r
				}
				idx.classRank = append(idx.classRank, r)
			}
			facts[j] = offeringFacts{class: id, available: of.Available}
			if it.ZonesKnown {
				idx.classSeen[id] |= seenZonesKnown
			} else {
				idx.classSeen[id] |= seenZonesUnknown
			}
			if idx.zonesUnknown.Has(i) {
				idx.classJudged[id] |= judgedWithoutZone
			} else {
				idx.classJudged[id] |= judgedWithZone
			}
		}
		idx.facts[i] = facts
	}
	idx.namesSorted = slices.IsSorted(idx.names)
	idx.sizeRank = sizeRanks(types)
	return idx
}

// fixedZone is what Requirement.Any gives for the zone requirement of reqs, when that is not
// random: the value of an In with one value, or "" for DoesNotExist.
func fixedZone(reqs scheduling.Requirements) (string, bool) {
	if !reqs.Has(corev1.LabelTopologyZone) {
		return "", false // Get gives Exists: Any is random
	}
	switch z := reqs.Get(corev1.LabelTopologyZone); z.Operator() {
	case corev1.NodeSelectorOpIn:
		if z.Len() == 1 {
			return z.Any(), true
		}
	case corev1.NodeSelectorOpDoesNotExist:
		return "", true
	}
	return "", false
}

// hasGPU reports whether the type has a nonzero quantity of one of the GPU resources.
func hasGPU(it *cloud.InstanceType, gpuResources []string) bool {
	for _, r := range gpuResources {
		if q, ok := it.Capacity[corev1.ResourceName(r)]; ok && !q.IsZero() {
			return true
		}
	}
	return false
}

// sizeRanks ranks the types by largerCapacity: a larger type has a higher rank, equal ones
// the same.
func sizeRanks(types []*cloud.InstanceType) []int32 {
	order := make([]int, len(types))
	for i := range order {
		order[i] = i
	}
	cmpSize := func(a, b int) int {
		switch ca, cb := types[a].Capacity, types[b].Capacity; {
		case largerCapacity(ca, cb):
			return 1
		case largerCapacity(cb, ca):
			return -1
		}
		return 0
	}
	slices.SortFunc(order, cmpSize)
	rank := make([]int32, len(types))
	for k := 1; k < len(order); k++ {
		rank[order[k]] = rank[order[k-1]]
		if cmpSize(order[k], order[k-1]) > 0 {
			rank[order[k]]++
		}
	}
	return rank
}

// Which kinds of type an offering class occurs in: its zone values count as offered only on
// types whose zones are known (see labelValues).
const (
	seenZonesKnown uint8 = 1 << iota
	seenZonesUnknown
)

// Against which requirements an offering class is judged (classJudged).
const (
	judgedWithZone uint8 = 1 << iota
	judgedWithoutZone
)

// appendCanonical appends what identifies a requirement for Intersects and Compatible: the
// operator, the minimum values, every value and, for a complement, its bounds. Karpenter keeps
// bounds only on complements (NewRequirement and Intersection drop them from concrete sets),
// and only String shows them.
func appendCanonical(buf []byte, r *scheduling.Requirement) []byte {
	op := r.Operator()
	buf = append(buf, op...)
	buf = append(buf, 0)
	if op == corev1.NodeSelectorOpNotIn || op == corev1.NodeSelectorOpExists {
		buf = append(buf, r.String()...)
		buf = append(buf, 0)
	}
	if r.MinValues != nil {
		buf = strconv.AppendInt(buf, int64(*r.MinValues), 10)
	}
	buf = append(buf, 0)
	vals := r.Values()
	if len(vals) > 1 {
		sort.Strings(vals)
	}
	for _, v := range vals {
		buf = append(buf, v...)
		buf = append(buf, 0)
	}
	return buf
}

// appendCanonicalSet appends the canonical form of every requirement of the set but the one
// on key skip ("" skips none), by key.
func appendCanonicalSet(buf []byte, reqs scheduling.Requirements, skip string) []byte {
	var fixed [8]string
	keys := fixed[:0]
	for k := range reqs {
		if k != skip {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		buf = append(buf, k...)
		buf = append(buf, 1)
		buf = appendCanonical(buf, reqs[k])
		buf = append(buf, 2)
	}
	return buf
}

// passes is one key's term of Requirements.Intersects (existing = the type's requirement).
func passes(existing, incoming *scheduling.Requirement) bool {
	if existing.HasIntersection(incoming) {
		return true
	}
	return negative(incoming.Operator()) && negative(existing.Operator())
}

func negative(op corev1.NodeSelectorOperator) bool {
	return op == corev1.NodeSelectorOpNotIn || op == corev1.NodeSelectorOpDoesNotExist
}

// admissibleAll returns, per type index, what rt.admissible(type, reqs) returns (nil for types
// that are not admissible).
func (rt *regionTypes) admissibleAll(reqs scheduling.Requirements) []cloudprovider.Offerings {
	offs, _ := rt.admissibleClasses(reqs)
	return offs
}

// admissibleClasses is admissibleAll with, per type, the index class of each admitted offering
// (parallel to its offerings), for the checks that ask offerings their capacity type.
func (rt *regionTypes) admissibleClasses(reqs scheduling.Requirements) ([]cloudprovider.Offerings, [][]int32) {
	idx := rt.index()
	types := rt.result.InstanceTypes
	mask, noZone := rt.admissibleMask(reqs)
	// Offering classes are judged lazily: 0 unknown, 1 compatible, 2 not.
	judged := [2][]uint8{make([]uint8, len(idx.classes)), make([]uint8, len(idx.classes))}
	out := make([]cloudprovider.Offerings, idx.n)
	// One backing array for every type's offerings: a plan analyses many pools, and a
	// separate slice per admissible type was most of an analysis's allocations.
	buf := make([]*cloudprovider.Offering, 0, 4*idx.n)
	classes := make([][]int32, idx.n)
	classBuf := make([]int32, 0, 4*idx.n)
	mask.Each(func(i int) {
		variant, against := 0, reqs
		if idx.zonesUnknown.Has(i) {
			variant, against = 1, noZone
		}
		start := len(buf)
		for j, f := range idx.facts[i] {
			c := f.class
			if !f.available {
				continue
			}
			v := judged[variant][c]
			if v == 0 {
				v = 2
				if against.IsCompatible(idx.classes[c], scheduling.AllowUndefinedWellKnownLabels) {
					v = 1
				}
				judged[variant][c] = v
			}
			if v == 1 {
				buf = append(buf, types[i].Offerings[j])
				classBuf = append(classBuf, c)
			}
		}
		if len(buf) > start {
			out[i] = cloudprovider.Offerings(buf[start:len(buf):len(buf)])
			classes[i] = classBuf[start:len(classBuf):len(classBuf)]
		}
	})
	return out, classes
}

// admissibleMask is the set of types whose requirements the pool's requirements intersect (the
// first half of admissible, for every type at once), and the requirements that the offerings of
// types without zone data are judged against (reqs without its zone requirement).
func (rt *regionTypes) admissibleMask(reqs scheduling.Requirements) (bitset.Set, scheduling.Requirements) {
	idx := rt.index()
	mask := bitset.New(idx.n)
	for i := range mask {
		mask[i] = ^uint64(0)
	}
	if rem := idx.n % 64; rem != 0 {
		mask[len(mask)-1] = (1 << uint(rem)) - 1
	}
	for key, r := range reqs {
		for _, g := range idx.groups[key] {
			if passes(g.req, r) {
				continue
			}
			if key == corev1.LabelTopologyZone {
				// Types without zone data are judged against the region's zones below.
				mask.AndNotMasked(g.members, idx.zonesUnknown)
			} else {
				mask.AndNot(g.members)
			}
		}
	}
	if reqs.Has(corev1.LabelTopologyZone) && rt.zones != nil && !anyAllowed(reqs.Get(corev1.LabelTopologyZone), rt.zones) {
		mask.AndNot(idx.zonesUnknown)
	}
	return mask, zoneless(reqs)
}

// zoneless is reqs without their zone requirement: what the offerings of types without zone
// data are judged against (zonesUnjudged).
func zoneless(reqs scheduling.Requirements) scheduling.Requirements {
	if !reqs.Has(corev1.LabelTopologyZone) {
		return reqs
	}
	return withoutKey(reqs, corev1.LabelTopologyZone)
}
