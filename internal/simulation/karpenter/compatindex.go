package karpenter

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// compatIndex numbers a round's instance types and the offerings of their allocatable groups
// (slots), for the compatibility memo's bitsets. It depends on the instance-type lists only.
// Those never change (see valueUnion), so the index of a list is kept per process.
type compatIndex struct {
	its []*cloudprovider.InstanceType
	idx map[*cloudprovider.InstanceType]int32
	// groups are, per instance type, its allocatable groups' slot ranges, in group order.
	groups [][]slotRange
	slots  []offerSlot
	// full holds, per instance type, compatOf's answer for when each group has a compatible
	// offering: every group's allocatable. [0] is the not-compatible answer, [1] the
	// compatible one. The memos share them.
	full [][2]itCompat
	// itKeys are the label keys some instance type has, offKeys those some offering has.
	itKeys  map[string]bool
	offKeys []string
	// itBits and offBits hold, per requirement (compatCache.reqID's key), the instance types
	// and offering slots it admits. They depend on the list and the requirement only. So
	// rounds over the same list share them, under mu.
	mu              sync.Mutex
	itBits, offBits map[string]bitset
	// itCols and offCols are the columns of a key (see column). absentOff holds, per offering
	// key, the slots a set without the key admits. They are shared like the bitsets, under mu.
	itCols, offCols map[string]*column
	absentOff       map[string]bitset
}

// shared is the bitset of key in *m, computed and kept when missing. A list keeps at most a
// few thousand requirements: the map is cleared past that.
func (ix *compatIndex) shared(m *map[string]bitset, key string, compute func() bitset) bitset {
	ix.mu.Lock()
	b, ok := (*m)[key]
	ix.mu.Unlock()
	if ok {
		return b
	}
	b = compute()
	ix.mu.Lock()
	if *m == nil || len(*m) >= 4096 {
		*m = map[string]bitset{}
	}
	(*m)[key] = b
	ix.mu.Unlock()
	return b
}

type slotRange struct{ from, to int32 }

type offerSlot struct {
	offering *cloudprovider.Offering
	// capacityType is the offering's CapacityType when its requirement has one value (every
	// catalog offering); "" otherwise, where CapacityType picks one at random each time.
	capacityType string
}

func newOfferSlot(of *cloudprovider.Offering) offerSlot {
	s := offerSlot{offering: of}
	if r := of.Requirements.Get(karpv1.CapacityTypeLabelKey); r.Len() == 1 && r.Operator() == corev1.NodeSelectorOpIn {
		s.capacityType = r.Any()
	}
	return s
}

// capacityTypeOf is Offering.CapacityType.
func (s *offerSlot) capacityTypeOf() string {
	if s.capacityType != "" {
		return s.capacityType
	}
	return s.offering.CapacityType()
}

var (
	compatIndexMu    sync.Mutex
	compatIndexCache = map[valueUnionKey]*compatIndex{}
)

// indexFor is the index of the pools' instance types. When they share one list it is that
// list's per-process index. Otherwise it is built for the round.
func indexFor(lists [][]*cloudprovider.InstanceType) *compatIndex {
	var distinct [][]*cloudprovider.InstanceType
	for _, l := range lists {
		if len(l) == 0 {
			continue
		}
		if !slices.ContainsFunc(distinct, func(d []*cloudprovider.InstanceType) bool { return sameList(d, l) }) {
			distinct = append(distinct, l)
		}
	}
	if len(distinct) != 1 {
		return newCompatIndex(distinct)
	}
	k := valueUnionKey{&distinct[0][0], len(distinct[0])}
	compatIndexMu.Lock()
	defer compatIndexMu.Unlock()
	if ix, ok := compatIndexCache[k]; ok {
		return ix
	}
	if len(compatIndexCache) >= 64 {
		clear(compatIndexCache) // bounded: a process sees a few lists (regions × node classes)
	}
	ix := newCompatIndex(distinct)
	compatIndexCache[k] = ix
	return ix
}

func sameList(a, b []*cloudprovider.InstanceType) bool {
	return len(a) == len(b) && &a[0] == &b[0]
}

func newCompatIndex(lists [][]*cloudprovider.InstanceType) *compatIndex {
	ix := &compatIndex{idx: map[*cloudprovider.InstanceType]int32{}, itKeys: map[string]bool{}}
	offCols := map[string]*columnBuilder{}
	for _, l := range lists {
		for _, it := range l {
			if _, ok := ix.idx[it]; ok {
				continue
			}
			for key := range it.Requirements {
				ix.itKeys[key] = true
			}
			ix.idx[it] = int32(len(ix.its))
			ix.its = append(ix.its, it)
			var ranges []slotRange
			full := itCompat{exact: true}
			for _, g := range it.AllocatableOfferingsList() {
				r := slotRange{from: int32(len(ix.slots))}
				for _, of := range g.Offerings {
					j := len(ix.slots)
					ix.slots = append(ix.slots, newOfferSlot(of))
					for key, r := range of.Requirements {
						cb := offCols[key]
						if cb == nil {
							cb = &columnBuilder{}
							offCols[key] = cb
						}
						cb.add(j, r)
					}
				}
				r.to = int32(len(ix.slots))
				ranges = append(ranges, r)
				v := toAllocVec(g.Allocatable)
				full.allocatables = append(full.allocatables, g.Allocatable)
				full.vecs = append(full.vecs, v)
				full.exact = full.exact && v.exact
			}
			ix.groups = append(ix.groups, ranges)
			yes := full
			yes.compatible = true
			ix.full = append(ix.full, [2]itCompat{full, yes})
		}
	}
	ix.offCols = make(map[string]*column, len(offCols))
	for key, cb := range offCols {
		ix.offCols[key] = cb.finish(len(ix.slots))
		if key != corev1.LabelHostname {
			ix.offKeys = append(ix.offKeys, key)
		}
	}
	slices.Sort(ix.offKeys)
	return ix
}

// appendOptionIDs appends the instance types' indices, in order. An instance type outside
// the index is appended by name.
func (c *compatCache) appendOptionIDs(b []byte, its []*cloudprovider.InstanceType) []byte {
	for _, it := range its {
		if i, ok := c.ix.idx[it]; ok {
			b = binary.AppendUvarint(append(b, 'i'), uint64(i))
			continue
		}
		b = append(append(b, 'n'), it.Name...)
		b = append(b, 0)
	}
	return b
}

// bitset is a set of small integers.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func newFullBitset(n int) bitset {
	b := newBitset(n)
	for i := range b {
		b[i] = ^uint64(0)
	}
	if r := n % 64; r != 0 {
		b[len(b)-1] = 1<<r - 1
	}
	return b
}

func (b bitset) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }

func (b bitset) and(o bitset) {
	for i := range b {
		b[i] &= o[i]
	}
}

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}
