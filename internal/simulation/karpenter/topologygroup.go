package karpenter

import (
	"fmt"
	"math"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	selectop "k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// topologyType is the kind of constraint a group counts for.
type topologyType byte

const (
	typeSpread topologyType = iota
	typePodAffinity
	typePodAntiAffinity
)

func (t topologyType) String() string {
	return [...]string{"topology spread", "pod affinity", "pod anti-affinity"}[t]
}

// topologyGroup is one constraint with its per-domain counts.
type topologyGroup struct {
	id         string
	index      int
	key        string
	typ        topologyType
	maxSkew    int32
	minDomains *int32
	namespaces sets.Set[string]
	selector   labels.Selector
	filter     nodeFilter
	owners     map[types.UID]bool
	domains    map[string]int32
	empty      sets.Set[string]
	// needs are the label values the selector requires: its Equals and single-value In terms.
	// A pod without one of them is not selected, and mayMatch tells so without the selector.
	needs []labelValue
	// exists is Exists on key (existsRequirement).
	exists *scheduling.Requirement
	// creator and domainGroup are the pod and domains a group was made with. They are kept
	// until materialize.
	creator     *corev1.Pod
	domainGroup domainGroup
}

type labelValue struct{ key, value string }

func newTopologyGroup(typ topologyType, key string, p *corev1.Pod, ns sets.Set[string], sel *metav1.LabelSelector, maxSkew int32, minDomains *int32, taintPolicy, affinityPolicy *corev1.NodeInclusionPolicy, dg domainGroup) *topologyGroup {
	var filter nodeFilter
	if typ == typeSpread {
		tp, ap := corev1.NodeInclusionPolicyIgnore, corev1.NodeInclusionPolicyHonor
		if taintPolicy != nil {
			tp = *taintPolicy
		}
		if affinityPolicy != nil {
			ap = *affinityPolicy
		}
		filter = makeNodeFilter(p, tp, ap)
	}
	selector, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		selector = labels.Nothing()
	}
	g := &topologyGroup{key: key, typ: typ, maxSkew: maxSkew, minDomains: minDomains, namespaces: ns, selector: selector,
		filter: filter, creator: p, domainGroup: dg}
	// Karpenter hashes key, type, namespaces, maxSkew, the node filter and the selector as
	// written (hashSelector), not the parsed selector. It leaves minDomains out: constraints
	// that differ only there share the first one's group.
	g.id = strings.Join([]string{key, typ.String(), strings.Join(sets.List(ns), ","), fmt.Sprint(maxSkew), filter.id, selectorID(sel)}, "\x00")
	return g
}

// selectorID tells selectors apart as upstream's hashSelector does. A nil selector (which
// selects nothing) differs from an empty one (which selects everything), since hashSelector
// hashes a nil selector's labels as 0 and an empty map as a nonzero hash. The expressions form
// a set, each with its values as a set, and the labels a map. An invalid selector keeps its
// own id, though it selects nothing, as upstream hashes it as written.
func selectorID(sel *metav1.LabelSelector) string {
	if sel == nil {
		return "nil"
	}
	exprs := sets.New[string]()
	for _, e := range sel.MatchExpressions {
		exprs.Insert(strings.Join([]string{e.Key, string(e.Operator), strings.Join(sets.List(sets.New(e.Values...)), "\x02")}, "\x01"))
	}
	matchLabels := make([]string, 0, len(sel.MatchLabels))
	for k, v := range sel.MatchLabels {
		matchLabels = append(matchLabels, k+"\x01"+v)
	}
	sort.Strings(matchLabels)
	return "{" + strings.Join(sets.List(exprs), "\x03") + "}" + strings.Join(matchLabels, "\x03")
}

// materialize gives a new group its owners, its domains at zero and the label values its
// selector needs. Every pod with a constraint makes a group to learn its id. Only the first
// group of an id is kept (update), so only that one is filled.
func (g *topologyGroup) materialize() {
	g.owners, g.domains, g.empty = map[types.UID]bool{}, map[string]int32{}, sets.New[string]()
	if reqs, ok := g.selector.Requirements(); ok {
		for _, r := range reqs {
			switch op := r.Operator(); {
			case op == selectop.Equals || op == selectop.DoubleEquals || (op == selectop.In && r.Values().Len() == 1):
				g.needs = append(g.needs, labelValue{r.Key(), r.Values().UnsortedList()[0]})
			}
		}
	}
	g.domainGroup.forEach(g.creator, g.filter.taintPolicy, func(d string) {
		g.domains[d] = 0
		g.empty.Insert(d)
	})
	g.creator, g.domainGroup = nil, nil
}

// mayMatch is false when the pod lacks a label value the selector requires, and true
// otherwise. When it is false, selects is false too.
func (g *topologyGroup) mayMatch(p *corev1.Pod) bool {
	for _, n := range g.needs {
		if v, ok := p.Labels[n.key]; !ok || v != n.value {
			return false
		}
	}
	return true
}

func (g *topologyGroup) selects(p *corev1.Pod) bool {
	return g.namespaces.Has(p.Namespace) && g.selector.Matches(labels.Set(p.Labels))
}

func (g *topologyGroup) counts(p *corev1.Pod, taints []corev1.Taint, reqs scheduling.Requirements) bool {
	return g.selects(p) && g.filter.matches(taints, reqs)
}

func (g *topologyGroup) recordDomains(domains ...string) {
	for _, d := range domains {
		g.domains[d]++
		g.empty.Delete(d)
	}
}

func (g *topologyGroup) sortedDomains() []string {
	out := make([]string, 0, len(g.domains))
	for d := range g.domains {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

func (g *topologyGroup) next(p *corev1.Pod, podDomains, nodeDomains *scheduling.Requirement, tb *ties) *scheduling.Requirement {
	switch g.typ {
	case typeSpread:
		return g.nextSpread(p, podDomains, nodeDomains, tb)
	case typePodAffinity:
		return g.nextAffinity(p, podDomains, nodeDomains, tb)
	default:
		return g.nextAntiAffinity(podDomains, nodeDomains)
	}
}

// nextSpread is nextDomainTopologySpread: the domain with the lowest count within the skew.
// Upstream takes the first such domain in map or unsorted set order. Among several at the
// lowest count that is a random one. Here the tie-breaker picks among them in name order.
func (g *topologyGroup) nextSpread(p *corev1.Pod, podDomains, nodeDomains *scheduling.Requirement, tb *ties) *scheduling.Requirement {
	minCount := g.domainMinCount(podDomains)
	self := g.selects(p)
	if g.key == corev1.LabelHostname && len(nodeDomains.Values()) == 1 {
		host := nodeDomains.Values()[0]
		count := g.domains[host]
		if self {
			count++
		}
		if count <= g.maxSkew {
			return scheduling.NewRequirement(g.key, corev1.NodeSelectorOpIn, host)
		}
		return scheduling.NewRequirement(g.key, corev1.NodeSelectorOpDoesNotExist)
	}
	var best []string
	bestCount := int32(math.MaxInt32)
	consider := func(d string, count int32) {
		if self {
			count++
		}
		if count-minCount > g.maxSkew {
			return
		}
		if count < bestCount {
			best, bestCount = append(best[:0], d), count
		} else if count == bestCount {
			best = append(best, d)
		}
	}
	if nodeDomains.Operator() == corev1.NodeSelectorOpIn {
		vals := nodeDomains.Values()
		sort.Strings(vals)
		for _, d := range vals {
			if c, ok := g.domains[d]; ok {
				consider(d, c)
			}
		}
	} else {
		for _, d := range g.sortedDomains() {
			if nodeDomains.Has(d) {
				consider(d, g.domains[d])
			}
		}
	}
	if len(best) == 0 {
		return scheduling.NewRequirement(g.key, corev1.NodeSelectorOpDoesNotExist)
	}
	return scheduling.NewRequirement(g.key, corev1.NodeSelectorOpIn, best[tb.chooseDomain(g.key, best)])
}

func (g *topologyGroup) domainMinCount(domains *scheduling.Requirement) int32 {
	if g.key == corev1.LabelHostname {
		// Karpenter can always create a new node, so the hostname minimum is zero.
		return 0
	}
	minCount, supported := int32(math.MaxInt32), int32(0)
	for d, c := range g.domains {
		if domains.Has(d) {
			supported++
			if c < minCount {
				minCount = c
			}
		}
	}
	if g.minDomains != nil && supported < *g.minDomains {
		minCount = 0
	}
	return minCount
}

func (g *topologyGroup) nextAffinity(p *corev1.Pod, podDomains, nodeDomains *scheduling.Requirement, tb *ties) *scheduling.Requirement {
	options := scheduling.NewRequirement(g.key, corev1.NodeSelectorOpDoesNotExist)
	if g.key == corev1.LabelHostname && len(nodeDomains.Values()) == 1 {
		host := nodeDomains.Values()[0]
		if !podDomains.Has(host) {
			return options
		}
		if g.domains[host] > 0 || (g.selects(p) && (len(g.domains) == len(g.empty) || !g.anyCompatible(podDomains))) {
			options.Insert(host)
		}
		return options
	}
	if nodeDomains.Operator() == corev1.NodeSelectorOpIn {
		for _, d := range nodeDomains.Values() {
			if c, ok := g.domains[d]; podDomains.Has(d) && ok && c > 0 {
				options.Insert(d)
			}
		}
	} else {
		for d, c := range g.domains {
			if podDomains.Has(d) && c > 0 && nodeDomains.Has(d) {
				options.Insert(d)
			}
		}
	}
	if options.Len() != 0 {
		return options
	}
	// No pod the term selects is placed yet. A pod that selects itself may start a domain:
	// one of the node's and one of its own. Upstream each is the first of a map range, so
	// random. Here the tie-breaker picks in name order.
	if g.selects(p) && (len(g.domains) == len(g.empty) || !g.anyCompatible(podDomains)) {
		both := podDomains.Intersection(nodeDomains)
		var inBoth, inPod []string
		for _, d := range g.sortedDomains() {
			if both.Has(d) {
				inBoth = append(inBoth, d)
			}
			if podDomains.Has(d) {
				inPod = append(inPod, d)
			}
		}
		if len(inBoth) > 0 {
			options.Insert(inBoth[tb.chooseDomain(g.key, inBoth)])
		}
		if len(inPod) > 0 {
			options.Insert(inPod[tb.chooseDomain(g.key, inPod)])
		}
	}
	return options
}

func (g *topologyGroup) anyCompatible(podDomains *scheduling.Requirement) bool {
	for d, c := range g.domains {
		if podDomains.Has(d) && c > 0 {
			return true
		}
	}
	return false
}

func (g *topologyGroup) nextAntiAffinity(podDomains, nodeDomains *scheduling.Requirement) *scheduling.Requirement {
	options := scheduling.NewRequirement(g.key, corev1.NodeSelectorOpDoesNotExist)
	if g.key == corev1.LabelHostname && len(nodeDomains.Values()) == 1 {
		host := nodeDomains.Values()[0]
		if g.domains[host] == 0 {
			options.Insert(host)
		}
		return options
	}
	if nodeDomains.Operator() == corev1.NodeSelectorOpIn && nodeDomains.Len() < len(g.empty) {
		for _, d := range nodeDomains.Values() {
			if g.empty.Has(d) && podDomains.Has(d) {
				options.Insert(d)
			}
		}
	} else {
		for d := range g.empty {
			if nodeDomains.Has(d) && podDomains.Has(d) {
				options.Insert(d)
			}
		}
	}
	return options
}

// existsRequirement is Exists on the group's key, which is what a set without the key
// allows. It is made once, since the domain picks only read it.
func (g *topologyGroup) existsRequirement() *scheduling.Requirement {
	if g.exists == nil {
		g.exists = scheduling.NewRequirement(g.key, corev1.NodeSelectorOpExists)
	}
	return g.exists
}
