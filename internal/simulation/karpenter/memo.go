package karpenter

import (
	"maps"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"
)

// Memo keeps what Solve works out from the existing nodes' bound pods, for later Solves on
// the same cluster: the pods' summed requests, per topology group how many of them the group
// selects, and the node's labels as requirements. Karpenter's state.Cluster keeps the same sums across its simulations. It
// also keeps the topology domains the pools and their instance types offer.
//
// An entry is keyed by node name and holds the pod lists it was made from; it is used only
// while the node's Pods and DaemonSetPods are the same pods in the same order, so a caller
// may bind, evict and replace pods freely. It assumes a bound pod's requests, namespace and
// labels never change in place (a new *corev1.Pod carries a change).
//
// A Memo is safe for concurrent use. The zero value is not: use NewMemo.
type Memo struct {
	mu    sync.Mutex
	nodes map[string]*nodeMemo
	// domains is the last round's domain index (memodomains.go).
	domains *domainsMemo
}

// NewMemo is an empty memo.
func NewMemo() *Memo { return &Memo{nodes: map[string]*nodeMemo{}} }

// nodeMemo is one node's entry.
type nodeMemo struct {
	pods, daemonSetPods []*corev1.Pod
	// requests is resources.RequestsForPods of the bound pods, in bound() order; shared,
	// never modified.
	requests corev1.ResourceList
	// selected counts, per group (selectionKey), the bound pods the group selects.
	selected map[string]int32
	// labels and labelReqs are the node's labels when last asked and NewLabelRequirements of
	// them; shared, never modified.
	labels    map[string]string
	labelReqs scheduling.Requirements
}

// memoBound is the most entries kept per node of a Solve: names of deleted nodes are dropped
// when the memo outgrows it.
const memoBound = 2

// forNode is the node's entry, made anew when its pods changed. nil without a memo.
func (m *Memo) forNode(n *ExistingNode, nodes int) *nodeMemo {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.nodes[n.Name]
	if e != nil && slices.Equal(e.pods, n.Pods) && slices.Equal(e.daemonSetPods, n.DaemonSetPods) {
		return e
	}
	if len(m.nodes) >= memoBound*nodes+16 {
		clear(m.nodes)
	}
	e = &nodeMemo{pods: slices.Clone(n.Pods), daemonSetPods: slices.Clone(n.DaemonSetPods)}
	m.nodes[n.Name] = e
	return e
}

// boundRequests is resources.RequestsForPods(n.bound()...), from the entry when there is one.
func (m *Memo) boundRequests(e *nodeMemo, n *ExistingNode) corev1.ResourceList {
	if e == nil {
		return resources.RequestsForPods(n.bound()...)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if e.requests == nil {
		e.requests = resources.RequestsForPods(n.bound()...)
	}
	return e.requests
}

// labelRequirements is NewLabelRequirements(n.Labels), from the entry while the labels are
// the same. The caller must not modify it.
func (m *Memo) labelRequirements(e *nodeMemo, n *ExistingNode) scheduling.Requirements {
	if e == nil {
		return scheduling.NewLabelRequirements(n.Labels)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if e.labelReqs == nil || !maps.Equal(e.labels, n.Labels) {
		e.labels, e.labelReqs = maps.Clone(n.Labels), scheduling.NewLabelRequirements(n.Labels)
	}
	return e.labelReqs
}

// selectedCount is how many of the node's bound pods the group selects, from the entry when
// there is one.
func (m *Memo) selectedCount(e *nodeMemo, n *ExistingNode, g *topologyGroup) int32 {
	if e == nil {
		return countSelected(n, g)
	}
	key := selectionKey(g)
	m.mu.Lock()
	defer m.mu.Unlock()
	if k, ok := e.selected[key]; ok {
		return k
	}
	if e.selected == nil {
		e.selected = map[string]int32{}
	}
	k := countSelected(n, g)
	e.selected[key] = k
	return k
}

// selectionKey names what selects depends on: the group's namespaces and selector are in its
// id; an invalid selector (labels.Nothing) and an empty one print alike, so Empty tells them
// apart.
func selectionKey(g *topologyGroup) string {
	if g.selector.Empty() {
		return g.id + "\x00empty"
	}
	return g.id
}

// countSelected counts the node's bound pods the group selects.
func countSelected(n *ExistingNode, g *topologyGroup) int32 {
	var k int32
	for _, list := range [][]*corev1.Pod{n.Pods, n.DaemonSetPods} {
		for _, p := range list {
			if g.mayMatch(p) && g.selects(p) {
				k++
			}
		}
	}
	return k
}
