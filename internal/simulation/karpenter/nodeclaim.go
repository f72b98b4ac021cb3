package karpenter

import (
	"errors"
	"fmt"
	"math"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// nodeClaim is an in-flight NodeClaim of the scheduling round.
type nodeClaim struct {
	template            *template
	hostname            string
	requirements        scheduling.Requirements
	instanceTypeOptions []*cloudprovider.InstanceType
	requests            corev1.ResourceList
	pods                []*corev1.Pod
	daemonGroups        []daemonGroup
	topology            *topology
	cache               *compatCache
	// rooms and allocs hold, when floorOK, each option's room after its daemon overhead and
	// its allocatable, in option order. A pod that leaves the requirements as they are keeps
	// the options whose room holds the new requests. That is all the filter would decide.
	rooms, allocs []vec
	// minValues is whether the requirements carry minValues, which the filter then checks.
	minValues bool
	// ownOptions is whether instanceTypeOptions is this NodeClaim's own copy, made by narrow.
	// Narrowing may compact its own copy in place. Otherwise the slice may be shared with the
	// template or a filter's input.
	ownOptions bool
	// largest is the component-wise largest allocatable among the options, valid when
	// largestOK. A pod whose requests with the NodeClaim's exceed it fits no option. So it is
	// turned away without the filter. Karpenter reaches the same "no instance type" verdict
	// the long way.
	largest   vec
	largestOK bool
	floor     vec
	floorOK   bool
	// boundsMemo is the memo the rooms were computed with.
	boundsMemo *reqMemo
	requestsV  vec
	requestsOK bool
	// seq is the NodeClaim's rank in creation order.
	seq int
	// portsUsed is whether a DaemonSet pod or a bound pod uses a host port. Until one does,
	// no usage entry is added. A port-less pod would add an entry without ports, which no
	// check sees. ownPorts is whether daemonGroups and their usages are this NodeClaim's
	// copies.
	portsUsed, ownPorts bool
}

func newNodeClaim(t *template, topo *topology, cache *compatCache, its []*cloudprovider.InstanceType, hostname string) *nodeClaim {
	reqs := scheduling.NewRequirements(t.requirements.Values()...)
	reqs.Add(scheduling.NewRequirement(corev1.LabelHostname, corev1.NodeSelectorOpIn, hostname))
	// The groups' host-port usages are the template's until a pod is added to them (ownPorts).
	return &nodeClaim{template: t, hostname: hostname, requirements: reqs, instanceTypeOptions: its,
		requests: corev1.ResourceList{}, daemonGroups: t.daemonGroups, topology: topo, cache: cache, portsUsed: t.daemonPorts}
}

// candidate is what adding a pod would make of the NodeClaim. When narrowed, the options are
// the NodeClaim's own whose room holds narrowTo. narrow counted them, and add keeps them.
type candidate struct {
	requirements scheduling.Requirements
	options      []*cloudprovider.InstanceType
	narrowed     bool
	narrowTo     vec
}

// canAdd is NodeClaim.CanAdd: taints, requirements, topology, then the instance types that
// still fit all its pods.
func (n *nodeClaim) canAdd(p *corev1.Pod, pd *podData, relaxMinValues bool) (candidate, error) {
	if err := scheduling.Taints(n.template.taints).ToleratesPod(p); err != nil {
		return candidate{}, err
	}
	if n.largestOK && n.requestsOK && pd.requestsOK {
		t := n.requestsV
		for i := range t {
			t[i] += pd.requestsV[i]
		}
		if !(allocVec{v: n.largest}).holds(t) {
			return candidate{}, errTooFull
		}
	}
	if pd.plain && len(n.pods) > 0 {
		return n.addPlain(p, pd, relaxMinValues)
	}
	if len(pd.requirements) == 0 && !pd.plain && len(n.pods) > 0 {
		// Only topology can narrow the requirements. Every domain it picks may be the one the
		// NodeClaim is already pinned to. Then the requirements stay as they are, and the pod
		// is added like a plain one.
		topo, err := n.topology.addRequirements(p, n.template.taints, pd.strictRequirements, n.requirements)
		if err != nil {
			return candidate{}, err
		}
		if sameMap(topo, n.requirements) || pinnedAlike(n.requirements, topo) {
			return n.addPlain(p, pd, relaxMinValues)
		}
		// The pod adds no requirement. So upstream's copy of the NodeClaim's set is what the
		// topology was just asked with. Upstream asks once, and a second call would meet its
		// ties again.
		reqs := scheduling.NewRequirements(n.requirements.Values()...)
		return n.withTopology(p, pd, reqs, topo, relaxMinValues)
	}
	if len(pd.requirements) > 0 && len(n.pods) > 0 && n.cache.absorbs(n.requirements, pd.requirements) {
		// The pod's requirements leave the NodeClaim's as they are. Each of its keys is the
		// NodeClaim's already, and narrows to itself. So upstream's copy with them added
		// equals the NodeClaim's set, and the topology is asked with that set, once.
		topo, err := n.topology.addRequirements(p, n.template.taints, pd.strictRequirements, n.requirements)
		if err != nil {
			return candidate{}, err
		}
		if sameMap(topo, n.requirements) || pinnedAlike(n.requirements, topo) {
			return n.addPlain(p, pd, relaxMinValues)
		}
		reqs := scheduling.NewRequirements(n.requirements.Values()...)
		reqs.Add(pd.requirements.Values()...)
		return n.withTopology(p, pd, reqs, topo, relaxMinValues)
	}
	reqs := scheduling.NewRequirements(n.requirements.Values()...)
	if !cloud.Compatible(reqs, pd.requirements, n.template.wellKnown) {
		return candidate{}, fmt.Errorf("incompatible requirements, %w", reqs.Compatible(pd.requirements, n.template.allow))
	}
	reqs.Add(pd.requirements.Values()...)
	topo, err := n.topology.addRequirements(p, n.template.taints, pd.strictRequirements, reqs)
	if err != nil {
		return candidate{}, err
	}
	return n.withTopology(p, pd, reqs, topo, relaxMinValues)
}

// withTopology is the rest of canAdd once the pod's requirements are added (reqs) and the
// topology has answered (topo).
func (n *nodeClaim) withTopology(p *corev1.Pod, pd *podData, reqs, topo scheduling.Requirements, relaxMinValues bool) (candidate, error) {
	if !cloud.Compatible(reqs, topo, n.template.wellKnown) {
		return candidate{}, reqs.Compatible(topo, n.template.allow)
	}
	reqs.Add(topo.Values()...)
	if n.floorOK && n.requestsOK && pd.requestsOK && !pd.hostPorts && !reqs.HasMinValues() && n.boundsMemo != nil && n.cache.forReqs(reqs) == n.boundsMemo {
		// The new set admits exactly what the NodeClaim's does: the memo is the same. Every
		// option stays compatible and keeps its offerings. So the filter decides by room
		// alone, as for a plain pod.
		t := n.requestsV
		for i := range t {
			t[i] += pd.requestsV[i]
		}
		if c, ok := n.narrow(t); ok {
			c.requirements = reqs
			return c, nil
		}
	}
	total := resources.Merge(n.requests, pd.requests)
	remaining, unsatisfiable, err := filterInstanceTypes(n.cache, n.instanceTypeOptions, reqs, p, pd.hostPorts, pd.requests, n.daemonGroups, n.template.groupOf, total, relaxMinValues)
	if relaxMinValues {
		for key, mv := range unsatisfiable {
			v := mv
			reqs.Get(key).MinValues = &v
		}
	}
	if err != nil {
		return candidate{}, err
	}
	return candidate{requirements: reqs, options: remaining}, nil
}

// addPlain is canAdd for a pod that leaves the NodeClaim's requirements as they are. The
// requirements stay, where upstream rebuilds an equal set. Only the instance types that
// still fit change. When the requests fit the tightest option with its daemon overhead,
// none drops out.
func (n *nodeClaim) addPlain(p *corev1.Pod, pd *podData, relaxMinValues bool) (candidate, error) {
	if n.floorOK && n.requestsOK && pd.requestsOK && !pd.hostPorts {
		t := n.requestsV
		for i := range t {
			t[i] += pd.requestsV[i]
		}
		if t[0] <= n.floor[0] && t[1] <= n.floor[1] && t[2] <= n.floor[2] {
			return candidate{requirements: n.requirements, options: n.instanceTypeOptions}, nil
		}
		if !n.minValues {
			if c, ok := n.narrow(t); ok {
				return c, nil
			}
		}
	}
	total := resources.Merge(n.requests, pd.requests)
	remaining, _, err := filterInstanceTypes(n.cache, n.instanceTypeOptions, n.requirements, p, pd.hostPorts, pd.requests, n.daemonGroups, n.template.groupOf, total, relaxMinValues)
	if err != nil {
		return candidate{}, err
	}
	return candidate{requirements: n.requirements, options: remaining}, nil
}

// narrow is the filter's verdict on the options in the plain case. The requirements are the
// NodeClaim's own, so every option is compatible and has an offering. The pod uses no host
// port, and no minValues applies. Every option has one allocatable group in whole
// milli-units (floorOK). Then the options whose room holds the requests t are kept; add
// keeps them (keepRooms). ok is false when no option is left, so the filter says why.
func (n *nodeClaim) narrow(t vec) (candidate, bool) {
	kept := 0
	for _, r := range n.rooms {
		if t[0] <= r[0] && t[1] <= r[1] && t[2] <= r[2] {
			kept++
		}
	}
	switch kept {
	case 0:
		return candidate{}, false
	case len(n.rooms):
		return candidate{requirements: n.requirements, options: n.instanceTypeOptions}, true
	}
	return candidate{requirements: n.requirements, narrowed: true, narrowTo: t}, true
}

// keepRooms keeps the options whose room holds t, with their rooms and allocatables. It
// keeps them in order and in place. Options that are not the NodeClaim's own are copied
// once first. It recomputes largest and floor from the options kept.
func (n *nodeClaim) keepRooms(t vec) {
	opts := n.instanceTypeOptions
	if !n.ownOptions {
		opts = make([]*cloudprovider.InstanceType, len(n.instanceTypeOptions))
		copy(opts, n.instanceTypeOptions)
		n.ownOptions = true
	}
	n.largest = vec{}
	n.floor = vec{math.MaxInt64, math.MaxInt64, math.MaxInt64}
	k := 0
	for i, r := range n.rooms {
		if !(t[0] <= r[0] && t[1] <= r[1] && t[2] <= r[2]) {
			continue
		}
		a := n.allocs[i]
		opts[k], n.rooms[k], n.allocs[k] = opts[i], r, a
		k++
		for j := range r {
			n.largest[j] = max(n.largest[j], a[j])
			n.floor[j] = min(n.floor[j], r[j])
		}
	}
	n.instanceTypeOptions, n.rooms, n.allocs = opts[:k], n.rooms[:k], n.allocs[:k]
}

// pinnedAlike reports whether adding topo to reqs changes nothing. Each key of topo must be in
// reqs as the same requirement, or both must be In the same single value without minValues.
func pinnedAlike(reqs, topo scheduling.Requirements) bool {
	for k, t := range topo {
		r, ok := reqs[k]
		if !ok {
			return false
		}
		if r == t {
			continue
		}
		if r.Operator() != corev1.NodeSelectorOpIn || t.Operator() != corev1.NodeSelectorOpIn || r.Len() != 1 || t.Len() != 1 ||
			r.Values()[0] != t.Values()[0] || r.MinValues != nil || t.MinValues != nil {
			return false
		}
	}
	return true
}

func (n *nodeClaim) add(p *corev1.Pod, pd *podData, c candidate) {
	old, oldReqs := n.instanceTypeOptions, n.requirements
	first := len(n.pods) == 0
	n.pods = append(n.pods, p)
	if !c.narrowed && !sameOptions(old, c.options) {
		n.instanceTypeOptions, n.ownOptions = c.options, false
	}
	// The NodeClaim's requests are its own map, made by newNodeClaim and added to in place.
	// The sums equal upstream's Merge into a new map.
	n.requests = resources.MergeInto(n.requests, pd.requests)
	n.requirements = c.requirements
	if !first && n.requestsOK && pd.requestsOK {
		for i := range n.requestsV {
			n.requestsV[i] += pd.requestsV[i]
		}
	} else {
		n.requestsV, n.requestsOK = toVec(n.requests)
	}
	switch {
	case c.narrowed:
		n.keepRooms(c.narrowTo)
	case !sameOptions(old, c.options) || !sameMap(oldReqs, c.requirements):
		n.bounds(old)
	}
	n.topology.register(corev1.LabelHostname, n.hostname)
	n.topology.record(p, n.template.taints, c.requirements)
	n.portsUsed = n.portsUsed || pd.hostPorts
	if !n.portsUsed {
		return
	}
	if !n.ownPorts {
		groups := make([]daemonGroup, len(n.daemonGroups))
		for i, g := range n.daemonGroups {
			groups[i] = g
			groups[i].hostPorts = g.hostPorts.DeepCopy()
		}
		n.daemonGroups, n.ownPorts = groups, true
	}
	var ports []scheduling.HostPort
	if pd.hostPorts {
		ports = scheduling.GetHostPorts(p)
	}
	for _, g := range n.daemonGroups {
		g.hostPorts.Add(p, ports)
	}
}

func sameOptions(a, b []*cloudprovider.InstanceType) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// bounds recomputes largest, floor, rooms and allocs from the options. largest is the
// component-wise largest allocatable. floor is the component-wise smallest room an option
// leaves after its daemon overhead. floor is valid when every option has one allocatable
// group, all in whole milli-units. rooms and allocs are each option's room and allocatable.
func (n *nodeClaim) bounds(prev []*cloudprovider.InstanceType) {
	memo := n.cache.forReqs(n.requirements)
	if memo == n.boundsMemo && n.floorOK && len(n.rooms) == len(prev) && sameOptions(prev, n.instanceTypeOptions) {
		n.minValues = n.requirements.HasMinValues()
		return // the same options with the same answers: nothing changes
	}
	if memo == n.boundsMemo && n.floorOK && len(n.rooms) == len(prev) {
		// Every option gives the same answers, and their rooms are known. The options are
		// prev or an ordered subset of it, since the filter keeps its input's order. So
		// their rooms are picked from prev's instead of computed.
		n.minValues = n.requirements.HasMinValues()
		if n.pickRooms(prev) {
			return
		}
	}
	n.boundsMemo = memo
	n.largest, n.largestOK = vec{}, true
	n.floor, n.floorOK = vec{math.MaxInt64, math.MaxInt64, math.MaxInt64}, true
	n.minValues = n.requirements.HasMinValues()
	if cap(n.rooms) < len(n.instanceTypeOptions) {
		n.rooms, n.allocs = make([]vec, 0, len(n.instanceTypeOptions)), make([]vec, 0, len(n.instanceTypeOptions))
	}
	n.rooms, n.allocs = n.rooms[:0], n.allocs[:0]
	overhead, ok := n.template.overheadVecs()
	n.floorOK = ok
	for _, it := range n.instanceTypeOptions {
		ic := compatOf(memo, n.cache, it, n.requirements)
		if !ic.exact {
			n.largestOK, n.floorOK = false, false
			return
		}
		for _, a := range ic.vecs {
			for i := range a.v {
				n.largest[i] = max(n.largest[i], a.v[i])
			}
		}
		if len(ic.vecs) != 1 || ic.vecs[0].negative {
			n.floorOK = false
			continue
		}
		ov := overhead[it]
		var room vec
		for i := range n.floor {
			room[i] = ic.vecs[0].v[i] - ov[i]
			n.floor[i] = min(n.floor[i], room[i])
		}
		n.rooms = append(n.rooms, room)
		n.allocs = append(n.allocs, ic.vecs[0].v)
	}
}

// pickRooms keeps the rooms and allocatables of the options now held. n.rooms holds prev's,
// one per option of prev, in order. The options must be prev or an ordered subset of it. It
// then recomputes largest and floor, and returns false when they are not such a subset.
func (n *nodeClaim) pickRooms(prev []*cloudprovider.InstanceType) bool {
	n.largest = vec{}
	n.floor = vec{math.MaxInt64, math.MaxInt64, math.MaxInt64}
	k, i := 0, 0
	for _, it := range n.instanceTypeOptions {
		for i < len(prev) && prev[i] != it {
			i++
		}
		if i == len(prev) {
			return false // not a subset in order: the caller computes them
		}
		r, a := n.rooms[i], n.allocs[i]
		n.rooms[k], n.allocs[k] = r, a
		k++
		i++
		for j := range r {
			n.largest[j] = max(n.largest[j], a[j])
			n.floor[j] = min(n.floor[j], r[j])
		}
	}
	n.rooms, n.allocs = n.rooms[:k], n.allocs[:k]
	return true
}

// finalize is FinalizeScheduling. The hostname placeholder goes. The smallest daemon overhead
// among the groups that still have an option is added to the requests. The minimum is folded
// in the run's order of the groups, upstream's map order (daemonFoldOrder).
func (n *nodeClaim) finalize(foldOrder []int) {
	delete(n.requirements, corev1.LabelHostname)
	left := map[*cloudprovider.InstanceType]bool{}
	for _, it := range n.instanceTypeOptions {
		left[it] = true
	}
	var minOverhead corev1.ResourceList
	for _, i := range foldOrder {
		g := n.daemonGroups[i]
		has := false
		for _, it := range g.instanceTypes {
			if left[it] {
				has = true
				break
			}
		}
		if !has {
			continue
		}
		if len(minOverhead) == 0 {
			minOverhead = g.overhead
		} else {
			minOverhead = resources.MinResources(minOverhead, g.overhead)
		}
	}
	if len(minOverhead) > 0 {
		n.requests = resources.Merge(n.requests, minOverhead)
	}
}

var errTooFull = errors.New("no instance type option has room for the pod")

// filterError says why no instance type is left for a pod, in Karpenter's words.
type filterError struct {
	requirementsMet, fits, hasOffering bool
	minValues                          error
	requirements                       scheduling.Requirements
	requests                           corev1.ResourceList
}

func (e *filterError) Error() string {
	if e.minValues != nil {
		return fmt.Sprintf("%s, requirements=%s, resources=%s", e.minValues, e.requirements, resources.String(e.requests))
	}
	var missing []string
	if !e.requirementsMet {
		missing = append(missing, "met the scheduling requirements")
	}
	if !e.fits {
		missing = append(missing, "had enough resources")
	}
	if !e.hasOffering {
		missing = append(missing, "had a required offering")
	}
	if len(missing) == 0 {
		return fmt.Sprintf("no instance type met the requirements/resources/offering tuple, requirements=%s, resources=%s", e.requirements, resources.String(e.requests))
	}
	return fmt.Sprintf("no instance type %s, requirements=%s, resources=%s", strings.Join(missing, " or "), e.requirements, resources.String(e.requests))
}

// filterInstanceTypes is filterInstanceTypesByRequirements. It keeps the options that are
// compatible with the requirements and fit the requests plus their group's daemon overhead
// with a compatible offering. Then it applies minValues.
func filterInstanceTypes(cache *compatCache, its []*cloudprovider.InstanceType, reqs scheduling.Requirements, p *corev1.Pod, hasPorts bool, podRequests corev1.ResourceList, groups []daemonGroup, groupOf map[*cloudprovider.InstanceType]int, total corev1.ResourceList, relaxMinValues bool) (cloudprovider.InstanceTypes, map[string]int, error) {
	ferr := &filterError{requirements: reqs, requests: podRequests}
	memo := cache.forReqs(reqs)
	var ports []scheduling.HostPort
	if hasPorts {
		ports = scheduling.GetHostPorts(p)
	}
	// Upstream walks the groups, and in each the instance types that are options. Here the
	// options are walked, each looked up in its group (groupOf; nil: all in groups[0]). Each
	// group's requests and host-port verdict are computed once. Only the set of options
	// matters downstream, not their order.
	type groupState struct {
		seen, conflict bool
		req            corev1.ResourceList
		rv             vec
		rvOK           bool
	}
	var small [4]groupState
	states := small[:0]
	if len(groups) <= len(small) {
		states = small[:len(groups)]
	} else {
		states = make([]groupState, len(groups))
	}
	var remaining cloudprovider.InstanceTypes
	for _, it := range its {
		gi := 0
		if groupOf != nil && len(groups) > 1 { // one group holds all the template's options
			var ok bool
			if gi, ok = groupOf[it]; !ok {
				continue
			}
		}
		st := &states[gi]
		if !st.seen {
			g := &groups[gi]
			st.seen = true
			st.conflict = g.hostPorts.Conflicts(p, ports) != nil
			st.req = total
			if len(g.overhead) != 0 {
				st.req = resources.Merge(total, g.overhead)
			}
			st.rv, st.rvOK = toVec(st.req)
		}
		if st.conflict {
			continue
		}
		c := compatOf(memo, cache, it, reqs)
		compat := c.compatible
		fit, offering := c.fits(st.req, st.rv, st.rvOK)
		ferr.requirementsMet = ferr.requirementsMet || compat
		ferr.fits = ferr.fits || fit
		ferr.hasOffering = ferr.hasOffering || offering
		if compat && fit && offering {
			remaining = append(remaining, it)
		}
	}
	var unsatisfiable map[string]int
	if reqs.HasMinValues() {
		_, unsatisfiable, ferr.minValues = remaining.SatisfiesMinValues(reqs)
		if ferr.minValues != nil {
			if !relaxMinValues {
				remaining = nil
			} else {
				ferr.minValues = nil
			}
		}
	}
	if len(remaining) == 0 {
		return nil, unsatisfiable, ferr
	}
	if len(remaining) == len(its) {
		// The same options, in group order upstream, but only the set matters downstream.
		// Keeping the slice lets the NodeClaim see that nothing changed.
		return its, unsatisfiable, nil
	}
	return remaining, unsatisfiable, nil
}

// fits is fits() upstream. It says whether an allocatable group with a compatible offering
// holds the requests, and whether any group has a compatible offering.
func (c *itCompat) fits(requests corev1.ResourceList, rv vec, rvOK bool) (bool, bool) {
	if rvOK && c.exact {
		for _, a := range c.vecs {
			if a.holds(rv) {
				return true, true
			}
		}
		return false, len(c.vecs) > 0
	}
	for _, a := range c.allocatables {
		if resources.Fits(requests, a) {
			return true, true
		}
	}
	return false, len(c.allocatables) > 0
}
