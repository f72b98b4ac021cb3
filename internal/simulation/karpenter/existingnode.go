package karpenter

import (
	"errors"
	"fmt"
	"maps"
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"
)

// ExistingNode is a node already in the cluster when the round starts, a state node upstream.
// It is a launched NodeClaim of an earlier round, or a node a cluster snapshot lists. Its
// labels carry what the scheduler matches on: zone, instance type, capacity type, and the
// karpenter.sh/nodepool label of a managed node. The hostname is its name.
type ExistingNode struct {
	Name        string
	Labels      map[string]string
	Taints      []corev1.Taint
	Allocatable corev1.ResourceList
	// Capacity is charged against its NodePool's limits.
	Capacity corev1.ResourceList
	// Pods are bound to it, and DaemonSetPods are its bound DaemonSet pods. Both count in its
	// available resources, its host ports and the topology.
	Pods          []*corev1.Pod
	DaemonSetPods []*corev1.Pod
	// UnderConsolidateAfter is a node whose pool's consolidateAfter has not passed since its
	// last pod event. A consolidation simulation places no moving pod (Input.Moving) on it.
	// Upstream this is IsConsolidationSimulation and ExistingNode.isUnderConsolidateAfter.
	UnderConsolidateAfter bool
}

// NodePool is the pool the node belongs to ("" for a node Karpenter does not manage).
func (n ExistingNode) NodePool() string { return n.Labels[karpv1.NodePoolLabelKey] }

// bound is every pod bound to the node, as the cluster lists them.
func (n *ExistingNode) bound() []*corev1.Pod {
	return append(append(make([]*corev1.Pod, 0, len(n.Pods)+len(n.DaemonSetPods)), n.Pods...), n.DaemonSetPods...)
}

// existingNode is ExistingNode in the scheduler: what is left of the node for the round.
type existingNode struct {
	name         string
	index        int
	taints       []corev1.Taint
	requirements scheduling.Requirements
	remaining    corev1.ResourceList
	ports        *scheduling.HostPortUsage
	topology     *topology
	pods         []*corev1.Pod
	// underConsolidateAfter is ExistingNode.UnderConsolidateAfter.
	underConsolidateAfter bool
	// portsUsed is whether a pod on the node uses a host port: until then an entry without
	// ports changes nothing Conflicts sees, so none is added (as nodeClaim.portsUsed).
	portsUsed bool
}

// addPorts is ports.Add(p, GetHostPorts(p)), skipped while no pod uses a port.
func (n *existingNode) addPorts(p *corev1.Pod) {
	ports := scheduling.GetHostPorts(p)
	n.portsUsed = n.portsUsed || len(ports) > 0
	if n.portsUsed {
		n.ports.Add(p, ports)
	}
}

// newExistingNode is NewExistingNode. The node's available resources lose the requests of the
// compatible DaemonSet pods not yet bound to it. Its labels and its hostname become its
// requirements. Its hostname is registered with the topology.
//
// requested is resources.RequestsForPods of the bound pods (Memo.boundRequests). labels is
// NewLabelRequirements of its labels (topology.nodeRequirements). Both are only read.
func newExistingNode(n *ExistingNode, daemons []*corev1.Pod, topo *topology, requested corev1.ResourceList, labels scheduling.Requirements) *existingNode {
	var compatible []*corev1.Pod
	for _, d := range daemons {
		if scheduling.Taints(n.Taints).ToleratesPod(d) != nil {
			continue
		}
		if labels.Compatible(scheduling.NewStrictPodRequirements(d)) != nil {
			continue
		}
		compatible = append(compatible, d)
	}
	daemonResources := resources.RequestsForPods(compatible...)
	resources.SubtractFrom(daemonResources, resources.RequestsForPods(n.DaemonSetPods...))
	for k, v := range daemonResources {
		if v.Sign() < 0 {
			v.Set(0)
			daemonResources[k] = v
		}
	}
	bound := n.bound()
	available := resources.Subtract(n.Allocatable, requested)
	e := &existingNode{
		underConsolidateAfter: n.UnderConsolidateAfter,
		name:                  n.Name,
		taints:                n.Taints,
		requirements:          maps.Clone(labels), // Add below replaces entries, never changes one
		remaining:             resources.Subtract(available, daemonResources),
		ports:                 scheduling.NewHostPortUsage(),
		topology:              topo,
	}
	for _, p := range bound {
		e.addPorts(p)
	}
	e.requirements.Add(scheduling.NewRequirement(corev1.LabelHostname, corev1.NodeSelectorOpIn, n.Name))
	topo.register(corev1.LabelHostname, n.Name)
	return e
}

var errExceedsNode = errors.New("exceeds node resources")

// canAdd is ExistingNode.CanAdd: taints, host ports, resources, requirements, then topology.
func (n *existingNode) canAdd(p *corev1.Pod, pd *podData) (scheduling.Requirements, error) {
	if err := scheduling.Taints(n.taints).ToleratesPod(p); err != nil {
		return nil, err
	}
	if err := n.ports.Conflicts(p, scheduling.GetHostPorts(p)); err != nil {
		return nil, fmt.Errorf("checking host port usage, %w", err)
	}
	if !resources.Fits(pd.requests, n.remaining) {
		return nil, errExceedsNode
	}
	if err := n.requirements.Compatible(pd.requirements); err != nil {
		return nil, err
	}
	reqs := scheduling.NewRequirements(n.requirements.Values()...)
	reqs.Add(pd.requirements.Values()...)
	topo, err := n.topology.addRequirements(p, n.taints, pd.strictRequirements, reqs)
	if err != nil {
		return nil, err
	}
	if sameMap(topo, reqs) {
		return reqs, nil
	}
	if err := reqs.Compatible(topo); err != nil {
		return nil, err
	}
	reqs.Add(topo.Values()...)
	return reqs, nil
}

// add is ExistingNode.Add.
func (n *existingNode) add(p *corev1.Pod, pd *podData, reqs scheduling.Requirements) {
	n.pods = append(n.pods, p)
	resources.SubtractFrom(n.remaining, pd.requests)
	n.requirements = reqs
	n.topology.record(p, n.taints, reqs)
	n.addPorts(p)
}

// existingNodes is calculateExistingNodeClaims: the nodes in name order. Every node counts as
// initialized, so sortExistingNodes orders by name alone.
func existingNodes(in []ExistingNode, daemons []*corev1.Pod, topo *topology) []*existingNode {
	out := make([]*existingNode, len(in))
	for i := range in {
		out[i] = newExistingNode(&in[i], daemons, topo, topo.memo.boundRequests(topo.nodeMemos[i], &in[i]), topo.nodeRequirements(i))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	for i, n := range out {
		n.index = i
	}
	return out
}

// chargeExisting is updateRemainingResources for every node. Each pool's limits lose the
// capacity of its nodes (StateNode.Capacity), one node at a time.
func chargeExisting(limits map[string]corev1.ResourceList, nodes []ExistingNode) {
	one := corev1.ResourceList{resources.Node: resource.MustParse("1")}
	for _, n := range nodes {
		if l, ok := limits[n.NodePool()]; ok {
			limits[n.NodePool()] = resources.Subtract(l, resources.Merge(n.Capacity, one))
		}
	}
}

// addToExisting is addToExistingNode: the first node in order that takes the pod.
func (s *scheduler) addToExisting(p *corev1.Pod, pd *podData) bool {
	for _, n := range s.existing {
		if n.underConsolidateAfter && s.moving[p.UID] {
			continue
		}
		s.ties.try(-1 - n.index)
		if reqs, err := n.canAdd(p, pd); err == nil {
			n.add(p, pd, reqs)
			return true
		}
	}
	return false
}
