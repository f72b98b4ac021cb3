package karpenter

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// compatCache memoises, per distinct requirement set, which instance types are compatible
// with it and which of their allocatable groups have a compatible offering. Karpenter
// recomputes both for every option of every NodeClaim each time it tries a pod; they depend
// on nothing but the requirements and the instance type, and NodeClaims of a pool mostly
// share their requirements, so the emulation computes each pair once. The hostname
// requirement is left out of the key: no instance type or offering has that label, so it
// never changes either answer.
type compatCache struct {
	byReqs   map[string]map[*cloudprovider.InstanceType]*itCompat
	lastReqs scheduling.Requirements
	lastMemo map[*cloudprovider.InstanceType]*itCompat
}

type itCompat struct {
	compatible bool
	// allocatables of the groups with a compatible offering (fits() upstream looks no further
	// than a group's first compatible offering).
	allocatables []corev1.ResourceList
	vecs         []allocVec
	exact        bool
}

func newCompatCache() *compatCache {
	return &compatCache{byReqs: map[string]map[*cloudprovider.InstanceType]*itCompat{}}
}

// forReqs returns the memo of one requirement set. The last set asked for is remembered by
// identity: a NodeClaim's set is asked for again and again while plain pods are added.
func (c *compatCache) forReqs(reqs scheduling.Requirements) map[*cloudprovider.InstanceType]*itCompat {
	if c.lastReqs != nil && sameMap(c.lastReqs, reqs) {
		return c.lastMemo
	}
	defer func() { c.lastReqs = reqs }()
	key := requirementsKey(reqs)
	m, ok := c.byReqs[key]
	if !ok {
		m = map[*cloudprovider.InstanceType]*itCompat{}
		c.byReqs[key] = m
	}
	c.lastMemo = m
	return m
}

func compatOf(m map[*cloudprovider.InstanceType]*itCompat, it *cloudprovider.InstanceType, reqs scheduling.Requirements) *itCompat {
	if r, ok := m[it]; ok {
		return r
	}
	sg := singlesOf(it)
	r := &itCompat{compatible: cloud.IntersectsSingles(it.Requirements, sg.reqs, reqs)}
	for _, g := range it.AllocatableOfferingsList() {
		for _, of := range g.Offerings {
			if cloud.CompatibleWellKnownSingles(reqs, of.Requirements, sg.offering(of)) {
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
	m[it] = r
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

// itSingles are an instance type's single-valued labels and its offerings' (cloud.Singles):
// they make a compatibility memo miss a few lookups. Instance types come from long-lived
// per-region lists, so they are kept across rounds, bounded.
type itSingles struct {
	reqs   cloud.Singles
	offers map[*cloudprovider.Offering]cloud.Singles
}

func (s *itSingles) offering(of *cloudprovider.Offering) cloud.Singles {
	if sg, ok := s.offers[of]; ok {
		return sg
	}
	return cloud.SinglesOf(of.Requirements) // an offering not in the list: not memoised
}

var (
	singlesMu    sync.Mutex
	singlesCache = map[*cloudprovider.InstanceType]*itSingles{}
)

func singlesOf(it *cloudprovider.InstanceType) *itSingles {
	singlesMu.Lock()
	defer singlesMu.Unlock()
	if s, ok := singlesCache[it]; ok {
		return s
	}
	if len(singlesCache) >= 1<<16 {
		clear(singlesCache) // bounded: a process sees a few regions' lists
	}
	s := &itSingles{reqs: cloud.SinglesOf(it.Requirements), offers: make(map[*cloudprovider.Offering]cloud.Singles, len(it.Offerings))}
	for _, of := range it.Offerings {
		s.offers[of] = cloud.SinglesOf(of.Requirements)
	}
	singlesCache[it] = s
	return s
}
