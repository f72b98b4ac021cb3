package karpenter

import (
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
