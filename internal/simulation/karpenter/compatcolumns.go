package karpenter

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// column is one label key of the index's instance types, or of their offering slots. Its
// members are grouped by the requirement each has for the key. It holds the members lacking
// the key, and per distinct requirement one representative and its members. Distinct means
// another operator, other values or other bounds. A requirement's bits for the key are then
// decided once per distinct requirement, not once per member. The predicate is the same on
// an equal requirement, so the answer is the same. A region's 8,000 offering slots carry at
// most four zones and two capacity types.
type column struct {
	absent []int32
	groups []columnGroup
}

type columnGroup struct {
	rep     *scheduling.Requirement
	members []int32
	// single is whether rep is In one value (value) without minValues.
	single bool
	value  string
}

// newColumn groups n members by their requirement of a key (reqOf: nil when a member lacks it).
func newColumn(n int, reqOf func(int) *scheduling.Requirement) *column {
	var cb columnBuilder
	for i := 0; i < n; i++ {
		if r := reqOf(i); r != nil {
			cb.add(i, r)
		}
	}
	return cb.finish(n)
}

// columnBuilder makes a column from its members' requirements, given in member order.
type columnBuilder struct {
	c         column
	byContent map[string]int
	present   []int32
}

// add puts member i, whose requirement of the key is r, in its group. A requirement In one
// value is matched against the first groups' single values with Has, a lookup. Making its
// content key would iterate its set, which costs more.
func (cb *columnBuilder) add(i int, r *scheduling.Requirement) {
	const scanned = 8
	cb.present = append(cb.present, int32(i))
	c := &cb.c
	g := -1
	single := r.MinValues == nil && r.Operator() == corev1.NodeSelectorOpIn && r.Len() == 1
	if single {
		for gi := range c.groups[:min(len(c.groups), scanned)] {
			if c.groups[gi].single && r.Has(c.groups[gi].value) {
				g = gi
				break
			}
		}
	}
	if g < 0 {
		k := requirementContent(r)
		var ok bool
		if g, ok = cb.byContent[k]; !ok {
			if cb.byContent == nil {
				cb.byContent = map[string]int{}
			}
			g = len(c.groups)
			cb.byContent[k] = g
			c.groups = append(c.groups, columnGroup{rep: r, single: single})
			if single {
				c.groups[g].value = r.Any()
			}
		}
	}
	c.groups[g].members = append(c.groups[g].members, int32(i))
}

// finish is the column of n members: those not added lack the key.
func (cb *columnBuilder) finish(n int) *column {
	c := cb.c
	k := 0
	for i := 0; i < n; i++ {
		if k < len(cb.present) && cb.present[k] == int32(i) {
			k++
			continue
		}
		c.absent = append(c.absent, int32(i))
	}
	return &c
}

// bits is the set of members lacking the key or whose requirement passes keep.
func (c *column) bits(n int, keep func(*scheduling.Requirement) bool) bitset {
	b := newBitset(n)
	for _, i := range c.absent {
		b.set(int(i))
	}
	for _, g := range c.groups {
		if keep(g.rep) {
			for _, i := range g.members {
				b.set(int(i))
			}
		}
	}
	return b
}

// requirementContent identifies a requirement's content: operator, values, bounds and
// minValues. It is reqID's key plus minValues. Most requirements of instance types and
// offerings are In one value, and an In set has no bounds. That case is said without
// building the full key.
func requirementContent(r *scheduling.Requirement) string {
	if r.MinValues == nil && r.Len() == 1 && r.Operator() == corev1.NodeSelectorOpIn {
		return "\x01" + r.Any()
	}
	var sb strings.Builder
	sb.WriteString(reqKey(r))
	if r.MinValues != nil {
		sb.WriteByte(0)
		sb.WriteString(strconv.Itoa(*r.MinValues))
	}
	return sb.String()
}

// itColumn and offColumn are the index's columns of a key over its instance types and over
// its offering slots. Every round over the index shares them. The offering keys' columns are
// built with the index, in its one pass over the offerings. The others are built on first use.
func (ix *compatIndex) itColumn(key string) *column {
	return ix.column(&ix.itCols, key, func() *column {
		return newColumn(len(ix.its), func(i int) *scheduling.Requirement { return ix.its[i].Requirements[key] })
	})
}

func (ix *compatIndex) offColumn(key string) *column {
	return ix.column(&ix.offCols, key, func() *column {
		return newColumn(len(ix.slots), func(j int) *scheduling.Requirement { return ix.slots[j].offering.Requirements[key] })
	})
}

func (ix *compatIndex) column(m *map[string]*column, key string, build func() *column) *column {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if c, ok := (*m)[key]; ok {
		return c
	}
	c := build()
	if *m == nil {
		*m = map[string]*column{}
	}
	(*m)[key] = c
	return c
}

// absentBits are the offering slots a set without the key admits. They are the slots without
// the key, and those whose requirement of it is well known or excludes values
// (definedOrAllowed).
func (ix *compatIndex) absentBits(key string) bitset {
	ix.mu.Lock()
	b, ok := ix.absentOff[key]
	ix.mu.Unlock()
	if ok {
		return b
	}
	allowed := karpv1.WellKnownLabels.Has(key)
	b = ix.offColumn(key).bits(len(ix.slots), func(in *scheduling.Requirement) bool { return allowed || excludes(in) })
	ix.mu.Lock()
	if ix.absentOff == nil {
		ix.absentOff = map[string]bitset{}
	}
	ix.absentOff[key] = b
	ix.mu.Unlock()
	return b
}
