package karpenter

import (
	"encoding/binary"
	"reflect"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// compatCache memoises, per distinct requirement set, which instance types are compatible
// with it and which of their allocatable groups have a compatible offering. Karpenter
// recomputes both for every option of every NodeClaim each time it tries a pod. They depend
// on nothing but the requirements and the instance type. NodeClaims of a pool mostly share
// their requirements. So the emulation computes each pair once. The hostname requirement is
// left out: no instance type or offering has that label, so it never changes either answer.
//
// Both answers are conjunctions over label keys. cloud.IntersectsSingles asks, key by key,
// whether the two requirements of a key intersect. cloud.CompatibleWellKnownSingles also
// asks, of an offering's key the set lacks, whether it is well known or excluding. So a
// set's answers are kept as the AND of per-requirement bitsets over the round's instance
// types and offerings (compatIndex). A requirement met again in another set costs one
// lookup, not a pass over every instance type. Such a set is the pool's, a zone's, or a
// pod's node selector.
type compatCache struct {
	ix       *compatIndex
	byReqs   map[string]*reqMemo
	lastReqs scheduling.Requirements
	lastMemo *reqMemo
	// reqIDs identifies requirements by pointer, since requirement sets share their
	// unchanged requirements. Each entry is checked against the operator and length it had.
	// ids identifies them by key, operator and values. bitsIT and bitsOff hold, per id, the
	// instance types and offering slots the requirement admits.
	reqIDs  map[*scheduling.Requirement]reqRef
	ids     map[string]int32
	reqOf   []*scheduling.Requirement
	idKey   []string
	bitsIT  []bitset
	bitsOff []bitset
	scratch []int32
	keyBuf  []byte
	// absorbed memoises absorbs per pair of requirements (a set's and a pod's).
	absorbed map[[2]*scheduling.Requirement]bool
}

type reqRef struct {
	id int32
	op corev1.NodeSelectorOperator
	n  int
}

// reqMemo is one requirement set's answers.
type reqMemo struct {
	it, off bitset
	// entries hold, per instance type of the index, its answers once asked for. They are the
	// index's shared answers when every group has a compatible offering, else the memo's own.
	entries []*itCompat
	// other holds instance types outside the index (not in any pool's list), computed directly.
	other map[*cloudprovider.InstanceType]*itCompat
}

type itCompat struct {
	compatible bool
	// allocatables of the groups with a compatible offering. fits() upstream looks no
	// further than a group's first compatible offering.
	allocatables []corev1.ResourceList
	vecs         []allocVec
	exact        bool
}

func newCompatCache(ix *compatIndex) *compatCache {
	return &compatCache{ix: ix, byReqs: map[string]*reqMemo{}, reqIDs: map[*scheduling.Requirement]reqRef{}, ids: map[string]int32{}}
}

// forReqs returns the memo of one requirement set. The last set asked for is remembered by
// identity: a NodeClaim's set is asked for again and again while plain pods are added.
func (c *compatCache) forReqs(reqs scheduling.Requirements) *reqMemo {
	if c.lastReqs != nil && sameMap(c.lastReqs, reqs) {
		return c.lastMemo
	}
	ids := c.scratch[:0]
	for k, r := range reqs {
		if k != corev1.LabelHostname {
			ids = append(ids, c.reqID(r))
		}
	}
	slices.Sort(ids)
	c.scratch = ids
	key := c.keyBuf[:0]
	for _, id := range ids {
		key = binary.AppendUvarint(key, uint64(id))
	}
	c.keyBuf = key
	m, ok := c.byReqs[string(key)]
	if !ok {
		m = c.newMemo(reqs, ids)
		c.byReqs[string(key)] = m
	}
	c.lastReqs, c.lastMemo = reqs, m
	return m
}

// reqKey identifies a requirement's key, operator and values (and bounds), not its minValues.
func reqKey(r *scheduling.Requirement) string {
	vals := r.Values()
	slices.Sort(vals)
	var sb strings.Builder
	sb.WriteString(r.Key)
	sb.WriteByte(0)
	sb.WriteString(string(r.Operator()))
	sb.WriteByte(0)
	sb.WriteString(strings.Join(vals, "\x01"))
	if op := r.Operator(); op != corev1.NodeSelectorOpIn && op != corev1.NodeSelectorOpDoesNotExist {
		sb.WriteByte(0)
		sb.WriteString(r.String()) // a complement may carry Gt/Lt bounds, which only String shows
	}
	return sb.String()
}

// reqID is the requirement's id: equal key, operator and values (and bounds) get the same id.
func (c *compatCache) reqID(r *scheduling.Requirement) int32 {
	if ref, ok := c.reqIDs[r]; ok && ref.op == r.Operator() && ref.n == r.Len() {
		return ref.id
	}
	key := reqKey(r)
	id, ok := c.ids[key]
	if !ok {
		id = int32(len(c.reqOf))
		c.ids[key] = id
		c.reqOf = append(c.reqOf, r)
		c.idKey = append(c.idKey, key)
		c.bitsIT = append(c.bitsIT, nil)
		c.bitsOff = append(c.bitsOff, nil)
	}
	c.reqIDs[r] = reqRef{id: id, op: r.Operator(), n: r.Len()}
	return id
}

func (c *compatCache) newMemo(reqs scheduling.Requirements, ids []int32) *reqMemo {
	ix := c.ix
	m := &reqMemo{it: newFullBitset(len(ix.its)), off: newFullBitset(len(ix.slots)), entries: make([]*itCompat, len(ix.its))}
	for _, id := range ids {
		r := c.reqOf[id]
		if ix.itKeys[r.Key] {
			m.it.and(c.itBits(id))
		}
	}
	for _, k := range ix.offKeys {
		if r, ok := reqs[k]; ok {
			m.off.and(c.offBits(c.reqID(r)))
		} else {
			m.off.and(c.ix.absentBits(k))
		}
	}
	return m
}

// itBits are the instance types whose requirement of the key intersects r (or that lack the
// key): Intersects(it.Requirements, {r}).
func (c *compatCache) itBits(id int32) bitset {
	if b := c.bitsIT[id]; b != nil {
		return b
	}
	b := c.ix.shared(&c.ix.itBits, c.idKey[id], func() bitset { return c.computeITBits(c.reqOf[id]) })
	c.bitsIT[id] = b
	return b
}

func (c *compatCache) computeITBits(r *scheduling.Requirement) bitset {
	return c.ix.itColumn(r.Key).bits(len(c.ix.its), func(e *scheduling.Requirement) bool {
		return e.HasIntersection(r) || (excludes(r) && excludes(e))
	})
}

// offBits are the offering slots whose requirement of the key is compatible with r (or that
// lack the key): CompatibleWellKnownSingles(set with r, offering) on that key.
func (c *compatCache) offBits(id int32) bitset {
	if b := c.bitsOff[id]; b != nil {
		return b
	}
	b := c.ix.shared(&c.ix.offBits, c.idKey[id], func() bitset { return c.computeOffBits(c.reqOf[id]) })
	c.bitsOff[id] = b
	return b
}

func (c *compatCache) computeOffBits(r *scheduling.Requirement) bitset {
	return c.ix.offColumn(r.Key).bits(len(c.ix.slots), func(in *scheduling.Requirement) bool {
		return r.HasIntersection(in) || (excludes(in) && excludes(r))
	})
}

// absorbs reports whether adding podReqs to reqs (Requirements.Add) gives a set equal to reqs.
// Every key of podReqs must be in reqs. Its intersection with reqs' requirement must have
// the same values, bounds and minValues as reqs' own.
func (c *compatCache) absorbs(reqs, podReqs scheduling.Requirements) bool {
	for k, q := range podReqs {
		r, ok := reqs[k]
		if !ok {
			return false
		}
		// Pairs with minValues are not memoised: a relaxed minValues is set in place.
		pair := [2]*scheduling.Requirement{r, q}
		same, known := c.absorbed[pair]
		if !known {
			x := r.Intersection(q)
			same = r.HasIntersection(q) && c.reqID(x) == c.reqID(r) && sameMinValues(x.MinValues, r.MinValues)
			if r.MinValues == nil && q.MinValues == nil {
				if c.absorbed == nil {
					c.absorbed = map[[2]*scheduling.Requirement]bool{}
				}
				c.absorbed[pair] = same
			}
		}
		if !same {
			return false
		}
	}
	return true
}

func sameMinValues(a, b *int) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func excludes(r *scheduling.Requirement) bool {
	op := r.Operator()
	return op == corev1.NodeSelectorOpNotIn || op == corev1.NodeSelectorOpDoesNotExist
}

func compatOf(m *reqMemo, c *compatCache, it *cloudprovider.InstanceType, reqs scheduling.Requirements) *itCompat {
	i, ok := c.ix.idx[it]
	if !ok {
		return m.otherCompat(it, reqs)
	}
	if e := m.entries[i]; e != nil {
		return e
	}
	compatible := m.it.has(int(i))
	all := true
	for _, g := range c.ix.groups[i] {
		found := false
		for j := g.from; j < g.to; j++ {
			if m.off.has(int(j)) {
				found = true
				break
			}
		}
		if !found {
			all = false
			break
		}
	}
	if all {
		e := &c.ix.full[i][0]
		if compatible {
			e = &c.ix.full[i][1]
		}
		m.entries[i] = e
		return e
	}
	full := &c.ix.full[i][0]
	e := &itCompat{compatible: compatible, exact: true}
	for gi, g := range c.ix.groups[i] {
		for j := g.from; j < g.to; j++ {
			if m.off.has(int(j)) {
				e.allocatables = append(e.allocatables, full.allocatables[gi])
				v := full.vecs[gi]
				e.vecs = append(e.vecs, v)
				e.exact = e.exact && v.exact
				break
			}
		}
	}
	m.entries[i] = e
	return e
}

// otherCompat is compatOf computed directly, for an instance type outside the index.
func (m *reqMemo) otherCompat(it *cloudprovider.InstanceType, reqs scheduling.Requirements) *itCompat {
	if r, ok := m.other[it]; ok {
		return r
	}
	if m.other == nil {
		m.other = map[*cloudprovider.InstanceType]*itCompat{}
	}
	sg := cloud.SinglesFor(it)
	r := &itCompat{compatible: cloud.IntersectsSingles(it.Requirements, sg.Requirements, reqs)}
	for _, g := range it.AllocatableOfferingsList() {
		for _, of := range g.Offerings {
			if cloud.CompatibleWellKnownSingles(reqs, of.Requirements, sg.Offering(of)) {
				r.allocatables = append(r.allocatables, g.Allocatable)
				break
			}
		}
	}
	r.exact = true
	for _, a := range r.allocatables {
		v := toAllocVec(a)
		r.vecs = append(r.vecs, v)
		r.exact = r.exact && v.exact
	}
	m.other[it] = r
	return r
}

// requirementsKey identifies a requirement set exactly (every value, bounds and minValues),
// without the hostname.
func requirementsKey(reqs scheduling.Requirements) string {
	keys := make([]string, 0, len(reqs))
	for k := range reqs {
		if k != corev1.LabelHostname {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var sb strings.Builder
	for _, k := range keys {
		r := reqs[k]
		vals := r.Values()
		slices.Sort(vals)
		sb.WriteString(k)
		sb.WriteByte(0)
		sb.WriteString(string(r.Operator()))
		sb.WriteByte(0)
		sb.WriteString(strings.Join(vals, "\x01"))
		sb.WriteByte(0)
		if op := r.Operator(); op != corev1.NodeSelectorOpIn && op != corev1.NodeSelectorOpDoesNotExist {
			sb.WriteString(r.String()) // a complement may carry Gt/Lt bounds, which only String shows
		}
		if r.MinValues != nil {
			sb.WriteString(strconv.Itoa(*r.MinValues))
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// sameMap reports whether two requirement sets are the same map (not merely equal).
func sameMap(a, b scheduling.Requirements) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
