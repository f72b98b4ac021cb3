package karpenter

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// topology tracks the scheduling round's topology spread constraints and pod (anti-)affinity
// terms, as Karpenter's Topology does. There is one group per distinct constraint, owned by
// the pods that carry it. A group counts the pods it selects per domain. Groups start with
// every domain a NodePool can offer at zero. They add the existing nodes' domains, with the
// bound pods counted. Karpenter iterates a map and takes the first of equal domains, a
// random pick. There the emulation asks its tie-breaker, which by default takes the first by
// name.
type topology struct {
	ties         *ties
	domainGroups *domainIndex
	groups       []*topologyGroup
	byKey        map[string]*topologyGroup
	inverse      []*topologyGroup
	inverseByKey map[string]*topologyGroup
	// selecting caches, per pod, the groups and inverse groups whose selector matches it. A
	// pod's labels and namespace never change, but an entry is stale once groups are added.
	// The pod's shape keeps the same cache (shapeTopology.sel).
	selecting map[types.UID]*selection
	// owned lists, per pod, the groups it owns, in the order of groups.
	owned map[types.UID][]*topologyGroup
	// shapes are the round's pod shapes. byShape holds, per shape id, the groups its
	// constraints resolve to and its labels' selection. A group's id depends on nothing but
	// the pod's shape. So pods of one shape own the same groups, and each shape builds them
	// once.
	shapes  *shapeTable
	byShape []shapeTopology
	// nodes are the nodes already in the cluster, whose pods each new group counts.
	nodes []ExistingNode
	// nodeReqs are the nodes' labels as requirements, built once per round: every new group
	// matches its node filter against them (countDomains), and nothing modifies them.
	nodeReqs []scheduling.Requirements
	// memo and nodeMemos are the caller's memo and the nodes' entries in it (nil without one).
	memo      *Memo
	nodeMemos []*nodeMemo
}

type shapeTopology struct {
	resolved bool
	// owned are the groups its spread and affinity terms resolve to, once each, in the order
	// of groups. inverse are the groups of its required anti-affinity terms.
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

func newTopology(domains *domainIndex, shapes *shapeTable, nodes []ExistingNode, memo *Memo, pods []*corev1.Pod) *topology {
	t := &topology{domainGroups: domains, byKey: map[string]*topologyGroup{}, inverseByKey: map[string]*topologyGroup{}, owned: map[types.UID][]*topologyGroup{},
		shapes: shapes, byShape: make([]shapeTopology, len(shapes.shapes)), nodes: nodes, memo: memo, nodeMemos: make([]*nodeMemo, len(nodes))}
	for i := range nodes {
		t.nodeMemos[i] = memo.forNode(&nodes[i], len(nodes))
	}
	t.updateInverseAffinities()
	for _, p := range pods {
		t.update(p)
	}
	return t
}

var (
	valueUnionMu    sync.Mutex
	valueUnionCache = map[valueUnionKey]map[string][]string{}
)

// valueUnionKey is a list's backing array and length. Holding it in the cache keeps the
// array alive, so the address cannot be reused by another list.
type valueUnionKey struct {
	array **cloudprovider.InstanceType
	n     int
}

// valueUnion is, per label key, every value an instance type of the list has. Lists come from
// the solver's per-region cache and are never modified, so the union is kept per list. A
// caller that modified a list in place between calls would have to pass a new one.
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

// resolve finds or registers the groups of the pod's constraints, for its shape. The first
// group of an id is kept, and later pods with the same constraint own that one.
func (t *topology) resolve(p *corev1.Pod, st *shapeTopology) {
	st.resolved = true
	if hasPodAntiAffinity(p) {
		st.inverse = t.updateInverseAntiAffinity(p)
	}
	for _, g := range append(t.forSpread(p), t.forAffinities(p)...) {
		if existing, ok := t.byKey[g.id]; ok {
			g = existing
		} else {
			g.materialize()
			t.countDomains(g)
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

// updateInverseAffinities makes the inverse groups of the bound pods' required anti-affinity
// terms. Each counts its pod in the domain of the pod's node. Upstream's
// updateInverseAffinities does so over the cluster's pods, before the pending pods' groups.
func (t *topology) updateInverseAffinities() {
	for i := range t.nodes {
		n := &t.nodes[i]
		for _, p := range n.bound() {
			if p.Spec.Affinity == nil || p.Spec.Affinity.PodAntiAffinity == nil {
				continue
			}
			for _, g := range t.updateInverseAntiAffinity(p) {
				if d, ok := n.Labels[g.key]; ok {
					g.recordDomains(d)
				}
				g.owners[p.UID] = true
			}
		}
	}
}

// updateInverseAntiAffinity finds or registers the inverse groups of the pod's required
// anti-affinity terms, in the order of its terms.
func (t *topology) updateInverseAntiAffinity(p *corev1.Pod) []*topologyGroup {
	var out []*topologyGroup
	for _, term := range p.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
		g := newTopologyGroup(typePodAntiAffinity, term.TopologyKey, p, namespaces(p, term), term.LabelSelector, math.MaxInt32, nil, nil, nil, t.domainGroups.get(term.TopologyKey))
		if existing, ok := t.inverseByKey[g.id]; ok {
			g = existing
		} else {
			g.materialize()
			t.inverseByKey[g.id] = g
			t.inverse = append(t.inverse, g)
		}
		out = append(out, g)
	}
	return out
}

// countDomains gives a new group the domains of the existing nodes its filter admits. It
// counts the bound pods the group selects on those nodes (Topology.countDomains).
func (t *topology) countDomains(g *topologyGroup) {
	for i := range t.nodes {
		n := &t.nodes[i]
		if !g.filter.matches(n.Taints, t.nodeRequirements(i)) {
			continue
		}
		d, labelled := n.Labels[g.key]
		if _, seen := g.domains[d]; labelled && !seen {
			g.domains[d] = 0
			g.empty.Insert(d)
		}
		if !labelled && g.key == corev1.LabelHostname {
			d, labelled = n.Name, true // upstream counts a node without the label under its name
		}
		if !labelled {
			continue
		}
		// recordDomains once per selected pod.
		if k := t.memo.selectedCount(t.nodeMemos[i], n, g); k > 0 {
			g.domains[d] += k
			g.empty.Delete(d)
		}
	}
}

// nodeRequirements is node i's labels as requirements (NewLabelRequirements), built on first
// use.
func (t *topology) nodeRequirements(i int) scheduling.Requirements {
	if t.nodeReqs == nil {
		t.nodeReqs = make([]scheduling.Requirements, len(t.nodes))
	}
	if t.nodeReqs[i] == nil {
		t.nodeReqs[i] = t.memo.labelRequirements(t.nodeMemos[i], &t.nodes[i])
	}
	return t.nodeReqs[i]
}

func hasPodAntiAffinity(p *corev1.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && a.PodAntiAffinity != nil &&
		(len(a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) != 0 || len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) != 0)
}

// namespaces is the term's namespace set. A namespaceSelector would select among the
// cluster's namespaces, which a plan does not see. So only the listed namespaces count.
// That is what Karpenter's scheduler sees on a cluster without matching Namespace objects.
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
// The node's requirements are copied only when a domain changes them. When every domain is
// the single value the node is already pinned to, nodeReqs itself is returned. It is an equal
// set, and the caller must not modify it.
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

// narrow adds the domains group g allows the pod to out. out is a copy of nodeReqs, made when
// a domain first changes them, and nil until then.
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

// pinnedTo reports whether the node's requirement and the domains are both In the same single
// value without minValues. Their intersection then equals the node's requirement.
func pinnedTo(node, domains *scheduling.Requirement) bool {
	return node != nil && node.MinValues == nil && domains.MinValues == nil &&
		node.Operator() == corev1.NodeSelectorOpIn && domains.Operator() == corev1.NodeSelectorOpIn &&
		node.Len() == 1 && domains.Len() == 1 && node.Has(domains.Values()[0])
}

// free reports whether no constraint applies to the pod. It owns no group, and no pod's
// anti-affinity selects it; counts() of those groups has no node filter.
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
