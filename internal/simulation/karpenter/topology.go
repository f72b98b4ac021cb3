package karpenter

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	selectop "k8s.io/apimachinery/pkg/selection"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// topology tracks the scheduling round's topology spread constraints and pod (anti-)affinity
// terms as Karpenter's Topology does: one group per distinct constraint, owned by the pods
// that carry it, counting the pods it selects per domain. The batch starts on an empty
// cluster (no running pods, no existing nodes), so groups start with every domain a NodePool
// can offer at zero. Where Karpenter iterates a map and takes the first of equal domains (a
// random pick), the emulation asks its tie-breaker, which by default takes the first by name.
type topology struct {
	ties         *ties
	domainGroups *domainIndex
	groups       []*topologyGroup
	byKey        map[string]*topologyGroup
	inverse      []*topologyGroup
	inverseByKey map[string]*topologyGroup
	// selecting caches, per pod, the groups and inverse groups whose selector matches it (a
	// pod's labels and namespace never change; an entry is stale once groups are added); its
	// shape keeps the same (shapeTopology.sel).
	selecting map[types.UID]*selection
	// owned lists, per pod, the groups it owns, in the order of groups.
	owned map[types.UID][]*topologyGroup
	// shapes are the round's pod shapes; byShape holds, per shape id, the groups its
	// constraints resolve to and its labels' selection: pods of one shape own the same groups
	// (a group's id depends on nothing but the pod's shape), so each shape builds them once.
	shapes  *shapeTable
	byShape []shapeTopology
}

type shapeTopology struct {
	resolved bool
	// owned are the groups its spread and affinity terms resolve to (once each, in the order
	// of groups); inverse the groups of its required anti-affinity terms.
	owned, inverse []*topologyGroup
	sel            *selection
}

// shapeState is the per-run topology state of the pod's shape.
func (t *topology) shapeState(p *corev1.Pod) *shapeTopology {
	sh := t.shapes.forPod(p)
	for len(t.byShape) <= sh.id {
		t.byShape = append(t.byShape, shapeTopology{})
	}
	return &t.byShape[sh.id]
}

type selection struct {
	groups, inverse []*topologyGroup
	nGroups, nInv   int
}

func (t *topology) selectionOf(p *corev1.Pod) *selection {
	if sh, ok := t.shapes.known[p]; ok && sh.id < len(t.byShape) {
		// One of the round's pods: its shape's selection, by the pod's address.
		if s := t.byShape[sh.id].sel; s != nil && s.nGroups == len(t.groups) && s.nInv == len(t.inverse) {
			return s
		}
	}
	if s, ok := t.selecting[p.UID]; ok && s.nGroups == len(t.groups) && s.nInv == len(t.inverse) {
		return s
	}
	if t.selecting == nil {
		t.selecting = map[types.UID]*selection{}
	}
	// The selection depends on the pod's namespace and labels only, which are its shape's.
	st := t.shapeState(p)
	if s := st.sel; s != nil && s.nGroups == len(t.groups) && s.nInv == len(t.inverse) {
		t.selecting[p.UID] = s
		return s
	}
	s := &selection{nGroups: len(t.groups), nInv: len(t.inverse)}
	for _, g := range t.groups {
		if g.mayMatch(p) && g.selects(p) {
			s.groups = append(s.groups, g)
		}
	}
	for _, g := range t.inverse {
		if g.mayMatch(p) && g.selects(p) {
			s.inverse = append(s.inverse, g)
		}
	}
	t.selecting[p.UID] = s
	st.sel = s
	return s
}

type topologyType byte

const (
	typeSpread topologyType = iota
	typePodAffinity
	typePodAntiAffinity
)

func (t topologyType) String() string {
	return [...]string{"topology spread", "pod affinity", "pod anti-affinity"}[t]
}

// domainGroup lists, per domain of a topology key, the taint sets of the NodePools offering
// it (one empty set when a taint-free pool offers it).
type domainGroup map[string][][]corev1.Taint

func (g domainGroup) insert(domain string, taints ...corev1.Taint) {
	sets, ok := g[domain]
	if ok && len(taints) == 0 && len(sets) == 1 && len(sets[0]) == 0 {
		return // already offered by a taint-free pool: the same one empty set
	}
	if !ok || len(taints) == 0 {
		g[domain] = [][]corev1.Taint{taints}
		return
	}
	if len(g[domain][0]) == 0 {
		return
	}
	g[domain] = append(g[domain], taints)
}

func (g domainGroup) forEach(p *corev1.Pod, policy corev1.NodeInclusionPolicy, f func(string)) {
	for domain, taintSets := range g {
		if policy == corev1.NodeInclusionPolicyIgnore {
			f(domain)
			continue
		}
		for _, ts := range taintSets {
			if scheduling.Taints(ts).ToleratesPod(p) == nil {
				f(domain)
				break
			}
		}
	}
}

func newTopology(domains *domainIndex, shapes *shapeTable, pods []*corev1.Pod) *topology {
	t := &topology{domainGroups: domains, byKey: map[string]*topologyGroup{}, inverseByKey: map[string]*topologyGroup{}, owned: map[types.UID][]*topologyGroup{},
		shapes: shapes, byShape: make([]shapeTopology, len(shapes.shapes))}
	for _, p := range pods {
		t.update(p)
	}
	return t
}

var (
	valueUnionMu    sync.Mutex
	valueUnionCache = map[valueUnionKey]map[string][]string{}
)

// valueUnionKey is a list's backing array and length; holding it in the cache keeps the
// array alive, so the address cannot be reused by another list.
type valueUnionKey struct {
	array **cloudprovider.InstanceType
	n     int
}

// valueUnion is, per label key, every value an instance type of the list has. Lists come from
// the solver's per-region cache and are never modified, so the union is kept per list (a
// caller that modifies a list in place between calls would need to pass a new one).
func valueUnion(its []*cloudprovider.InstanceType) map[string][]string {
	if len(its) == 0 {
		return nil
	}
	k := valueUnionKey{&its[0], len(its)}
	valueUnionMu.Lock()
	defer valueUnionMu.Unlock()
	if u, ok := valueUnionCache[k]; ok {
		return u
	}
	if len(valueUnionCache) >= 64 {
		clear(valueUnionCache) // bounded: a process sees a few lists (regions × node classes)
	}
	sets := map[string]map[string]bool{}
	for _, it := range its {
		for key, req := range it.Requirements {
			if sets[key] == nil {
				sets[key] = map[string]bool{}
			}
			for _, v := range req.Values() {
				sets[key][v] = true
			}
		}
	}
	u := make(map[string][]string, len(sets))
	for key, vs := range sets {
		u[key] = make([]string, 0, len(vs))
		for v := range vs {
			u[key] = append(u[key], v)
		}
	}
	valueUnionCache[k] = u
	return u
}

// update (re)registers the pod's constraints after it is created or relaxed.
func (t *topology) update(p *corev1.Pod) {
	for _, g := range t.owned[p.UID] {
		delete(g.owners, p.UID)
	}
	st := t.shapeState(p)
	if !st.resolved {
		t.resolve(p, st)
	}
	for _, g := range st.inverse {
		g.owners[p.UID] = true
	}
	for _, g := range st.owned {
		g.owners[p.UID] = true
	}
	if len(st.owned) > 0 {
		t.owned[p.UID] = st.owned // shared by the shape's pods, never modified
	} else {
		delete(t.owned, p.UID)
	}
}

// resolve finds (or registers) the groups of the pod's constraints, for its shape: the first
// group of an id is kept, later pods with the same constraint own that one.
func (t *topology) resolve(p *corev1.Pod, st *shapeTopology) {
	st.resolved = true
	if hasPodAntiAffinity(p) {
		for _, term := range p.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			g := newTopologyGroup(typePodAntiAffinity, term.TopologyKey, p, namespaces(p, term), term.LabelSelector, math.MaxInt32, nil, nil, nil, t.domainGroups.get(term.TopologyKey))
			if existing, ok := t.inverseByKey[g.id]; ok {
				g = existing
			} else {
				g.materialize()
				t.inverseByKey[g.id] = g
				t.inverse = append(t.inverse, g)
			}
			st.inverse = append(st.inverse, g)
		}
	}
	for _, g := range append(t.forSpread(p), t.forAffinities(p)...) {
		if existing, ok := t.byKey[g.id]; ok {
			g = existing
		} else {
			g.materialize()
			g.index = len(t.groups)
			t.byKey[g.id] = g
			t.groups = append(t.groups, g)
		}
		if !slices.Contains(st.owned, g) {
			st.owned = append(st.owned, g)
		}
	}
	sort.Slice(st.owned, func(i, j int) bool { return st.owned[i].index < st.owned[j].index })
}

func hasPodAntiAffinity(p *corev1.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && a.PodAntiAffinity != nil &&
		(len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) != 0 || len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) != 0)
}

// namespaces is the term's namespace set. A namespaceSelector would select among the
// cluster's namespaces, which a plan does not see: only the listed namespaces count (what
// Karpenter's scheduler sees on a cluster without matching Namespace objects).
func namespaces(p *corev1.Pod, term corev1.PodAffinityTerm) sets.Set[string] {
	if len(term.Namespaces) == 0 && term.NamespaceSelector == nil {
		return sets.New(p.Namespace)
	}
	return sets.New(term.Namespaces...)
}

func (t *topology) forSpread(p *corev1.Pod) []*topologyGroup {
	var out []*topologyGroup
	for _, tsc := range p.Spec.TopologySpreadConstraints {
		sel := tsc.LabelSelector
		if len(tsc.MatchLabelKeys) > 0 {
			if sel == nil {
				sel = &metav1.LabelSelector{}
			} else {
				sel = sel.DeepCopy()
			}
			for _, key := range tsc.MatchLabelKeys {
				if v, ok := p.Labels[key]; ok {
					sel.MatchExpressions = append(sel.MatchExpressions, metav1.LabelSelectorRequirement{Key: key, Operator: metav1.LabelSelectorOpIn, Values: []string{v}})
				}
			}
		}
		out = append(out, newTopologyGroup(typeSpread, tsc.TopologyKey, p, sets.New(p.Namespace), sel, tsc.MaxSkew, tsc.MinDomains, tsc.NodeTaintsPolicy, tsc.NodeAffinityPolicy, t.domainGroups.get(tsc.TopologyKey)))
	}
	return out
}

func (t *topology) forAffinities(p *corev1.Pod) []*topologyGroup {
	a := p.Spec.Affinity
	if a == nil {
		return nil
	}
	var out []*topologyGroup
	add := func(typ topologyType, terms []corev1.PodAffinityTerm) {
		for _, term := range terms {
			out = append(out, newTopologyGroup(typ, term.TopologyKey, p, namespaces(p, term), term.LabelSelector, math.MaxInt32, nil, nil, nil, t.domainGroups.get(term.TopologyKey)))
		}
	}
	if a.PodAffinity != nil {
		terms := slices.Clone(a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
		for _, w := range a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			terms = append(terms, w.PodAffinityTerm)
		}
		add(typePodAffinity, terms)
	}
	if a.PodAntiAffinity != nil {
		terms := slices.Clone(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
		for _, w := range a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			terms = append(terms, w.PodAffinityTerm)
		}
		add(typePodAntiAffinity, terms)
	}
	return out
}

// topologyError is Karpenter's "unsatisfiable topology constraint".
type topologyError struct {
	group                   *topologyGroup
	podDomains, nodeDomains *scheduling.Requirement
}

func (e topologyError) Error() string {
	return fmt.Sprintf("unsatisfiable topology constraint for %s, key=%s (podDomains = %v, nodeDomains = %v)", e.group.typ, e.group.key, e.podDomains, e.nodeDomains)
}

// addRequirements narrows the node's requirements to the domains each constraint that
// matches the pod allows (Topology.AddRequirements).
//
// The node's requirements are copied only when a domain changes them: when every domain is the
// single value the node is already pinned to, nodeReqs itself is returned (an equal set; the
// caller must not modify it).
func (t *topology) addRequirements(p *corev1.Pod, taints []corev1.Taint, podReqs, nodeReqs scheduling.Requirements) (scheduling.Requirements, error) {
	// The groups the pod owns, then the inverse groups that select it and count this node.
	var out scheduling.Requirements
	var err error
	for _, g := range t.owned[p.UID] {
		if out, err = t.narrow(g, p, podReqs, nodeReqs, out); err != nil {
			return nil, err
		}
	}
	for _, g := range t.selectionOf(p).inverse {
		if g.filter.matches(taints, nodeReqs) {
			if out, err = t.narrow(g, p, podReqs, nodeReqs, out); err != nil {
				return nil, err
			}
		}
	}
	if out == nil {
		return nodeReqs, nil
	}
	return out, nil
}

// narrow adds the domains group g allows the pod to out, a copy of nodeReqs made when a domain
// first changes them (nil until then).
func (t *topology) narrow(g *topologyGroup, p *corev1.Pod, podReqs, nodeReqs, out scheduling.Requirements) (scheduling.Requirements, error) {
	podDomains, ok := podReqs[g.key]
	if !ok {
		podDomains = g.existsRequirement()
	}
	nodeDomains, ok := nodeReqs[g.key]
	if !ok {
		nodeDomains = g.existsRequirement()
	}
	domains := g.next(p, podDomains, nodeDomains, t.ties)
	if domains.Len() == 0 {
		return nil, topologyError{group: g, podDomains: podDomains, nodeDomains: nodeDomains}
	}
	if out == nil {
		if pinnedTo(nodeReqs[g.key], domains) {
			return nil, nil // adding it would leave an equal requirement
		}
		out = scheduling.NewRequirements(nodeReqs.Values()...)
	}
	out.Add(domains)
	return out, nil
}

// existsRequirement is Exists on the group's key (what a set without the key allows), made
// once: the domain picks only read it.
func (g *topologyGroup) existsRequirement() *scheduling.Requirement {
	if g.exists == nil {
		g.exists = scheduling.NewRequirement(g.key, corev1.NodeSelectorOpExists)
	}
	return g.exists
}

// pinnedTo reports whether the node's requirement and the domains are both In the same single
// value without minValues: their intersection is then equal to the node's requirement.
func pinnedTo(node, domains *scheduling.Requirement) bool {
	return node != nil && node.MinValues == nil && domains.MinValues == nil &&
		node.Operator() == corev1.NodeSelectorOpIn && domains.Operator() == corev1.NodeSelectorOpIn &&
		node.Len() == 1 && domains.Len() == 1 && node.Has(domains.Values()[0])
}

// free reports whether no constraint applies to the pod: it owns no group and no pod's
// anti-affinity selects it (counts() of those groups has no node filter).
func (t *topology) free(p *corev1.Pod) bool {
	if len(t.owned[p.UID]) > 0 {
		return false
	}
	return len(t.selectionOf(p).inverse) == 0
}

// record counts a pod bound to a node with these requirements.
func (t *topology) record(p *corev1.Pod, taints []corev1.Taint, reqs scheduling.Requirements) {
	for _, g := range t.selectionOf(p).groups {
		if !g.filter.matches(taints, reqs) {
			continue
		}
		domains := reqs.Get(g.key)
		if g.typ == typePodAntiAffinity {
			g.recordDomains(domains.Values()...)
		} else if domains.Len() == 1 {
			g.recordDomains(domains.Values()[0])
		}
	}
	for _, g := range t.inverse {
		if g.owners[p.UID] {
			g.recordDomains(reqs.Get(g.key).Values()...)
		}
	}
}

func (t *topology) register(key, domain string) {
	for _, list := range [][]*topologyGroup{t.groups, t.inverse} {
		for _, g := range list {
			if g.key == key {
				if _, ok := g.domains[domain]; !ok {
					g.domains[domain] = 0
					g.empty.Insert(domain)
				}
			}
		}
	}
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
	// needs are label values the selector requires (its Equals and single-value In terms): a
	// pod without one of them is not selected, which mayMatch tells without the selector.
	needs []labelValue
	// exists is Exists on key (existsRequirement).
	exists *scheduling.Requirement
	// creator and domainGroup are the pod and domains a group was made with, until materialize.
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
	md := ""
	if minDomains != nil {
		md = fmt.Sprint(*minDomains)
	}
	// Karpenter hashes key, type, namespaces, maxSkew, the node filter and the selector; the
	// selector's string form is canonical (sorted requirements).
	g.id = strings.Join([]string{key, typ.String(), strings.Join(sets.List(ns), ","), fmt.Sprint(maxSkew), md, filter.id, selector.String()}, "\x00")
	return g
}

// materialize gives a new group its owners, its domains at zero and the label values its
// selector needs. Every pod with a constraint makes a group to learn its id; only the first of
// an id is kept (update), so only that one is filled.
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

// mayMatch is false when the pod lacks a label value the selector requires (then selects is
// false too); true otherwise.
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
// Upstream takes the first such domain in map (or unsorted set) order: among several at the
// lowest count, a random one; here the tie-breaker picks among them in name order.
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
	// No pod the term selects is placed yet: a pod that selects itself may start a domain, one
	// of the node's and one of its own, each the first of a map range upstream (random; the
	// tie-breaker picks in name order here).
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

// nodeFilter is which nodes a topology spread constraint counts (nodeAffinityPolicy and
// nodeTaintsPolicy).
type nodeFilter struct {
	id             string
	requirements   []scheduling.Requirements
	taintPolicy    corev1.NodeInclusionPolicy
	affinityPolicy corev1.NodeInclusionPolicy
	tolerations    []corev1.Toleration
}

func makeNodeFilter(p *corev1.Pod, taintPolicy, affinityPolicy corev1.NodeInclusionPolicy) nodeFilter {
	selector := scheduling.NewLabelRequirements(p.Spec.NodeSelector)
	f := nodeFilter{taintPolicy: taintPolicy, affinityPolicy: affinityPolicy, tolerations: p.Spec.Tolerations}
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		f.requirements = []scheduling.Requirements{selector}
	} else {
		for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
			r := scheduling.NewRequirements(selector.Values()...)
			r.Add(scheduling.NewNodeSelectorRequirements(term.MatchExpressions...).Values()...)
			f.requirements = append(f.requirements, r)
		}
	}
	parts := []string{string(taintPolicy), string(affinityPolicy), fmt.Sprint(p.Spec.Tolerations)}
	for _, r := range f.requirements {
		parts = append(parts, r.String())
	}
	f.id = strings.Join(parts, "|")
	return f
}

func (f nodeFilter) matches(taints []corev1.Taint, reqs scheduling.Requirements) bool {
	if f.affinityPolicy == corev1.NodeInclusionPolicyHonor && len(f.requirements) > 0 {
		ok := false
		for _, r := range f.requirements {
			if reqs.Compatible(r) == nil {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if f.taintPolicy == corev1.NodeInclusionPolicyHonor && scheduling.Taints(taints).Tolerates(f.tolerations) != nil {
		return false
	}
	return true
}
