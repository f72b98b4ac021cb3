package analysis

import (
	"sort"
	"strings"

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
	// requirement set in classes and its capacity type: a pool's checks read them, computed once
	// per region and node class, instead of asking each offering per pool
	// (Offering.CapacityType allocates at each call).
	facts   [][]offeringFacts
	classes []scheduling.Requirements
	// position is each type's index in the listing.
	position map[*cloud.InstanceType]int
}

// offeringFacts are what the per-pool checks ask of an offering; class is -1 for an offering
// that is not available.
type offeringFacts struct {
	class    int32
	capacity string
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
	groupOf := map[string]map[string]int{} // key -> canonical requirement -> position in groups[key]
	classOf := map[string]int32{}
	for i, it := range types {
		if zonesUnjudged(it) {
			idx.zonesUnknown.Add(i)
		}
		for key, r := range it.Requirements {
			c := canonical(r)
			byReq := groupOf[key]
			if byReq == nil {
				byReq = map[string]int{}
				groupOf[key] = byReq
			}
			g, ok := byReq[c]
			if !ok {
				g = len(idx.groups[key])
				byReq[c] = g
				idx.groups[key] = append(idx.groups[key], reqGroup{req: r, members: bitset.New(idx.n)})
			}
			idx.groups[key][g].members.Add(i)
		}
		idx.position[it] = i
		facts := make([]offeringFacts, len(it.Offerings))
		for j, of := range it.Offerings {
			facts[j] = offeringFacts{class: -1, capacity: of.CapacityType()}
			if !of.Available {
				continue
			}
			c := canonicalSet(of.Requirements)
			id, ok := classOf[c]
			if !ok {
				id = int32(len(idx.classes))
				classOf[c] = id
				idx.classes = append(idx.classes, of.Requirements)
			}
			facts[j].class = id
		}
		idx.facts[i] = facts
	}
	return idx
}

// canonical identifies a requirement by everything Intersects and Compatible look at: the
// operator, every value and the bounds (String() carries the bounds but truncates the values).
func canonical(r *scheduling.Requirement) string {
	vals := r.Values()
	sort.Strings(vals)
	return r.String() + "\x00" + strings.Join(vals, "\x00")
}

func canonicalSet(reqs scheduling.Requirements) string {
	keys := make([]string, 0, len(reqs))
	for k := range reqs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	for _, k := range keys {
		sb.WriteString(k)
		sb.WriteByte('\x01')
		sb.WriteString(canonical(reqs[k]))
		sb.WriteByte('\x02')
	}
	return sb.String()
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
	idx := rt.index()
	types := rt.result.InstanceTypes
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
	noZone := reqs
	if reqs.Has(corev1.LabelTopologyZone) {
		if rt.zones != nil && !anyAllowed(reqs.Get(corev1.LabelTopologyZone), rt.zones) {
			mask.AndNot(idx.zonesUnknown)
		}
		noZone = withoutKey(reqs, corev1.LabelTopologyZone)
	}
	// Offering classes are judged lazily: 0 unknown, 1 compatible, 2 not.
	judged := [2][]uint8{make([]uint8, len(idx.classes)), make([]uint8, len(idx.classes))}
	out := make([]cloudprovider.Offerings, idx.n)
	// One backing array for every type's offerings: a plan analyses many pools, and a
	// separate slice per admissible type was most of an analysis's allocations.
	buf := make([]*cloudprovider.Offering, 0, 4*idx.n)
	mask.Each(func(i int) {
		variant, against := 0, reqs
		if idx.zonesUnknown.Has(i) {
			variant, against = 1, noZone
		}
		start := len(buf)
		for j, f := range idx.facts[i] {
			c := f.class
			if c < 0 {
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
			}
		}
		if len(buf) > start {
			out[i] = cloudprovider.Offerings(buf[start:len(buf):len(buf)])
		}
	})
	return out
}
