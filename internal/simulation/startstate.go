package simulation

import (
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	podutils "sigs.k8s.io/karpenter/pkg/utils/pod"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// StartState is the running cluster a simulation starts from: its nodes as Karpenter's
// cluster state holds them, and the pods still pending in it.
type StartState struct {
	// Nodes are in name order: every Node, then every NodeClaim not yet registered as one.
	Nodes []StartNode
	// Pending are the snapshot's pods without spec.nodeName, then the pods Karpenter's
	// provisioner reschedules off deleting nodes.
	Pending []*corev1.Pod
	// Deleting are the nodes Karpenter's state marks for deletion (a deleting or terminating
	// NodeClaim; a deleting Node without one): the scheduler does not use them.
	Deleting []StartNode
	// Assumptions say what the snapshot did not tell and the catalog could not either.
	Assumptions []string
	// At is when the steady state's simulated clock starts (zero: the latest NodeClaim
	// creation, or SettleEpoch when later).
	At time.Time
}

// StartNode is one node of the start state.
type StartNode struct {
	karpenter.ExistingNode
	// NodeClaim is the node's NodeClaim (nil for a node Karpenter does not manage).
	NodeClaim *karpv1.NodeClaim
	// Annotations are the Node's own (karpenter.sh/do-not-disrupt); nil for an in-flight
	// NodeClaim. With ExistingNode and NodeClaim they are what the disruption emulation's
	// Node holds.
	Annotations map[string]string
	// HourlyPrice is the catalog's list price of the node's instance type and offering
	// (zone, capacity type) in the region; PriceKnown is false when the catalog has none.
	HourlyPrice float64
	Currency    string
	PriceKnown  bool
	// PriceEstimated says the catalog's price is itself an estimate (cloud.Price.Estimated).
	PriceEstimated bool
}

// ExistingNodes are the start state's nodes as Karpenter's scheduler takes them.
func (st *StartState) ExistingNodes() []karpenter.ExistingNode {
	if st == nil {
		return nil
	}
	out := make([]karpenter.ExistingNode, len(st.Nodes))
	for i, n := range st.Nodes {
		out[i] = n.ExistingNode
	}
	return out
}

// Start maps a cluster snapshot to the state a simulation in the region starts from. A node's
// labels give its NodePool, instance type, zone and capacity type; its allocatable and
// capacity come from its status, or from the catalog when the status has none. Pods bound by
// spec.nodeName are its pods, those a DaemonSet owns its DaemonSet pods. A NodeClaim with no
// Node yet is an in-flight node with the NodeClaim's labels and status, as Karpenter's state
// counts it. Node classes are read from in (the change) before the snapshot.
func Start(s *analysis.Analyzer, snap *clusterstate.Snapshot, in Input) *StartState {
	st := &StartState{}
	region := strings.ToLower(in.Region)
	claimOfNode := map[string]*karpv1.NodeClaim{}
	for _, c := range snap.NodeClaims {
		if c.Status.NodeName != "" {
			claimOfNode[c.Status.NodeName] = c
		}
	}
	bound := map[string][]*corev1.Pod{}
	for _, p := range snap.Pods {
		if p.Spec.NodeName == "" {
			st.Pending = append(st.Pending, p)
			continue
		}
		bound[p.Spec.NodeName] = append(bound[p.Spec.NodeName], p)
	}
	pr := newPricer(s, region, snap, in)
	seen := map[string]bool{}
	for _, n := range snap.Nodes {
		seen[n.Name] = true
		claim := claimOfNode[n.Name]
		labels := cloneLabels(n.Labels)
		labels[corev1.LabelHostname] = hostname(n.Labels, n.Name)
		taints := slices.Clone(n.Spec.Taints)
		if n.Spec.Unschedulable && !slices.ContainsFunc(taints, func(t corev1.Taint) bool { return t.Key == corev1.TaintNodeUnschedulable }) {
			// The node lifecycle controller taints a cordoned node so (TaintNodesByCondition).
			taints = append(taints, corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule})
		}
		sn := StartNode{NodeClaim: claim, Annotations: n.Annotations, ExistingNode: karpenter.ExistingNode{Name: n.Name, Labels: labels, Taints: taints,
			Allocatable: n.Status.Allocatable.DeepCopy(), Capacity: n.Status.Capacity.DeepCopy()}}
		sn.Pods, sn.DaemonSetPods = splitDaemons(bound[n.Name])
		pr.price(&sn, claim, st)
		st.Nodes = append(st.Nodes, sn)
	}
	for _, c := range snap.NodeClaims {
		if c.Status.NodeName != "" && seen[c.Status.NodeName] {
			continue
		}
		name := c.Status.NodeName
		if name == "" {
			name = c.Name
		}
		labels := claimLabels(c)
		labels[corev1.LabelHostname] = name
		sn := StartNode{NodeClaim: c, ExistingNode: karpenter.ExistingNode{Name: name, Labels: labels, Taints: slices.Concat(c.Spec.Taints, c.Spec.StartupTaints),
			Allocatable: c.Status.Allocatable.DeepCopy(), Capacity: c.Status.Capacity.DeepCopy()}}
		sn.Pods, sn.DaemonSetPods = splitDaemons(bound[name])
		pr.price(&sn, c, st)
		st.Nodes = append(st.Nodes, sn)
	}
	slices.SortStableFunc(st.Nodes, func(a, b StartNode) int { return strings.Compare(a.Name, b.Name) })
	st.Nodes, st.Deleting = partDeleting(st.Nodes, snap)
	st.Pending = append(st.Pending, reschedulable(st.Deleting, snap.PDBs, time.Now())...)
	if len(st.Pending) > 0 {
		st.Assumptions = append(st.Assumptions, fmt.Sprintf("the cluster's %d pending pods join the queue after the input's pods; the input's pods are taken as new, not as the cluster's running ones", len(st.Pending)))
	}
	return st
}

// splitDaemons parts a node's pods into those a DaemonSet owns and the others, as Karpenter's
// state node does (podutils.IsOwnedByDaemonSet).
func splitDaemons(pods []*corev1.Pod) (others, daemons []*corev1.Pod) {
	for _, p := range pods {
		if podutils.IsOwnedByDaemonSet(p) {
			daemons = append(daemons, p)
		} else {
			others = append(others, p)
		}
	}
	return others, daemons
}

// claimLabels are a NodeClaim's labels plus the single values of its requirements, the labels
// its Node will carry.
func claimLabels(c *karpv1.NodeClaim) map[string]string {
	labels := cloneLabels(c.Labels)
	reqs := scheduling.NewNodeSelectorRequirementsWithMinValues(c.Spec.Requirements...)
	for k, r := range reqs {
		if _, ok := labels[k]; !ok && r.Operator() == corev1.NodeSelectorOpIn && r.Len() == 1 {
			labels[k] = r.Values()[0]
		}
	}
	return labels
}

func cloneLabels(in map[string]string) map[string]string {
	out := make(map[string]string, len(in)+1)
	for k, v := range in {
		out[k] = v
	}
	return out
}

func hostname(labels map[string]string, name string) string {
	if h := labels[corev1.LabelHostname]; h != "" {
		return h
	}
	return name
}

// pricer looks nodes up in the catalog, per node class.
type pricer struct {
	s       *analysis.Analyzer
	region  string
	changed map[nodeClassKey]map[string]any
	live    map[nodeClassKey]map[string]any
	types   map[nodeClassKey]*analysis.RegionTypes
}

func newPricer(s *analysis.Analyzer, region string, snap *clusterstate.Snapshot, in Input) *pricer {
	live := map[nodeClassKey]map[string]any{}
	for _, o := range snap.NodeClasses {
		live[keyOf(nodeClassKind(s.Clouds(), o.Body), nameOf(o.Body))] = o.Body
	}
	return &pricer{s: s, region: region, changed: classesByRef(s.Clouds(), in.NodeClasses), live: live, types: map[nodeClassKey]*analysis.RegionTypes{}}
}

// regionTypes are the catalog's types for the node's class (its cloud's default class for a
// node without a NodeClaim, on the default cloud); nil without a region the cloud serves.
func (p *pricer) regionTypes(claim *karpv1.NodeClaim) *analysis.RegionTypes {
	c := p.s.Clouds().Default()
	var key nodeClassKey
	if claim != nil && claim.Spec.NodeClassRef != nil {
		ref := claim.Spec.NodeClassRef
		key = keyOf(schema.GroupKind{Group: ref.Group, Kind: ref.Kind}, ref.Name)
		if cc, ok := p.s.Clouds().ForGroup(ref.Group); ok {
			c = cc
		}
	}
	if rt, ok := p.types[key]; ok {
		return rt
	}
	var rt *analysis.RegionTypes
	if p.region != "" && c.HasRegion(p.region) {
		nc := c.DefaultNodeClass()
		body := p.changed[key]
		if body == nil {
			body = p.live[key]
		}
		if body != nil {
			if decoded, err := c.DecodeNodeClass(body); err == nil {
				nc = decoded
			}
		}
		t := p.s.RegionTypes(p.region, nc)
		rt = &t
	}
	p.types[key] = rt
	return rt
}

// price fills the node's price, and its allocatable and capacity where its status lacks them,
// from the catalog; what the catalog lacks becomes an assumption.
func (p *pricer) price(sn *StartNode, claim *karpv1.NodeClaim, st *StartState) {
	name := sn.Labels[corev1.LabelInstanceTypeStable]
	rt := p.regionTypes(claim)
	var it *cloud.InstanceType
	if rt != nil && name != "" {
		it = rt.ByName(name)
	}
	if it == nil {
		why := fmt.Sprintf("Node %s: instance type %q is not in the catalog for region %q: no price", sn.Name, name, p.region)
		if name == "" {
			why = fmt.Sprintf("Node %s: no %s label: no price", sn.Name, corev1.LabelInstanceTypeStable)
		}
		if len(sn.Allocatable) == 0 {
			why += ", and no allocatable in its status: it takes no pods"
		}
		st.Assumptions = append(st.Assumptions, why)
		return
	}
	if len(sn.Allocatable) == 0 {
		sn.Allocatable = it.Allocatable().DeepCopy()
		st.Assumptions = append(st.Assumptions, fmt.Sprintf("Node %s: no allocatable in its status; the catalog's for %s is taken", sn.Name, name))
	}
	if len(sn.Capacity) == 0 {
		sn.Capacity = it.Capacity.DeepCopy()
	}
	of := offeringOf(it, sn.Labels[corev1.LabelTopologyZone], capacityType(sn.Labels))
	if of == nil {
		st.Assumptions = append(st.Assumptions, fmt.Sprintf("Node %s: the catalog has no %s offering of %s in zone %q: no price",
			sn.Name, capacityType(sn.Labels), name, sn.Labels[corev1.LabelTopologyZone]))
		return
	}
	pr := it.PriceOf(of)
	if pr.Penalty() {
		st.Assumptions = append(st.Assumptions, fmt.Sprintf("Node %s: the catalog lists no price for %s: no price", sn.Name, name))
		return
	}
	sn.HourlyPrice, sn.Currency, sn.PriceKnown, sn.PriceEstimated = pr.Value, pr.Currency, true, pr.Estimated()
}

// capacityType is the node's karpenter.sh/capacity-type label, on-demand when it has none
// (a node Karpenter does not manage runs at the on-demand price unless it says otherwise).
func capacityType(labels map[string]string) string {
	if ct := labels[karpv1.CapacityTypeLabelKey]; ct != "" {
		return ct
	}
	return karpv1.CapacityTypeOnDemand
}

// offeringOf is the type's offering of the capacity type in the zone (any zone for a node
// without a zone label: a regional placement).
func offeringOf(it *cloud.InstanceType, zone, ct string) *cloudprovider.Offering {
	for _, o := range it.Offerings {
		if o.CapacityType() == ct && (zone == "" || cloud.ZoneOf(o) == zone) {
			return o
		}
	}
	return nil
}
