package disruption

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/utils/disruption"
	podutils "sigs.k8s.io/karpenter/pkg/utils/pod"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
	ncdisruption "github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/nodeclaim/disruption"
)

// NewNode is the node a NodeClaim of np created at created becomes: its NodeClaim carries the
// node's labels, the pool's hash annotations (so that a later change of the pool drifts it),
// expireAfter and terminationGracePeriod, is Launched, and Initialized at initializedAt (at
// once when initializedAt is not after created).
func NewNode(ex karpenter.ExistingNode, np *karpv1.NodePool, created, initializedAt time.Time) *Node {
	nc := &karpv1.NodeClaim{ObjectMeta: metav1.ObjectMeta{Name: ex.Name, Labels: map[string]string{}, Annotations: map[string]string{},
		CreationTimestamp: metav1.NewTime(created)}}
	for k, v := range ex.Labels {
		nc.Labels[k] = v
	}
	if np != nil {
		hashed := ncdisruption.WithHash(np)
		for _, k := range []string{karpv1.NodePoolHashAnnotationKey, karpv1.NodePoolHashVersionAnnotationKey} {
			nc.Annotations[k] = hashed.Annotations[k]
		}
		nc.Spec.ExpireAfter = np.Spec.Template.Spec.ExpireAfter
		nc.Spec.TerminationGracePeriod = np.Spec.Template.Spec.TerminationGracePeriod
		nc.Spec.Requirements = np.Spec.Template.Spec.Requirements
	}
	setCondition(nc, karpv1.ConditionTypeLaunched, created)
	n := &Node{ExistingNode: ex, NodeClaim: nc, Annotations: map[string]string{}}
	if initializedAt.After(created) {
		n.InitializedAt = initializedAt
	} else {
		setCondition(nc, karpv1.ConditionTypeInitialized, created)
	}
	return n
}

// setCondition sets a condition true as of at.
func setCondition(nc *karpv1.NodeClaim, t string, at time.Time) {
	nc.StatusConditions().SetTrue(t)
	for i := range nc.Status.Conditions {
		if nc.Status.Conditions[i].Type == t {
			nc.Status.Conditions[i].LastTransitionTime = metav1.NewTime(at)
		}
	}
}

// clearCondition removes a condition.
func clearCondition(nc *karpv1.NodeClaim, t string) {
	_ = nc.StatusConditions().Clear(t)
}

// Initialize is the NodeClaim lifecycle's initialization
// (pkg/controllers/nodeclaim/lifecycle/initialization.go): every node whose time has come
// is Initialized, as of that time. It reports whether any was.
func (c *Cluster) Initialize(now time.Time) bool {
	any := false
	for _, n := range c.Nodes {
		if !n.InitializedAt.IsZero() && !n.InitializedAt.After(now) {
			setCondition(n.NodeClaim, karpv1.ConditionTypeInitialized, n.InitializedAt)
			n.InitializedAt = time.Time{}
			any = true
		}
	}
	return any
}

// MarkConsolidatable is the NodeClaim disruption controller's Consolidation
// (pkg/controllers/nodeclaim/disruption/consolidation.go): Consolidatable once the pool's
// consolidateAfter has passed since the node's last pod event, or its initialization
// (disruption.IsUnderConsolidateAfter); cleared while it has not, or when consolidation is
// disabled or the node is not initialized.
func (c *Cluster) MarkConsolidatable(now time.Time) {
	s := newSnapshot(c, Options{}, now)
	for _, n := range c.Nodes {
		if n.NodeClaim == nil {
			continue
		}
		np := s.pools[n.NodePool()]
		if np == nil || np.Spec.Disruption.ConsolidateAfter.Duration == nil || !n.Initialized() || disruption.IsUnderConsolidateAfter(np, n.NodeClaim, s.clock) {
			clearCondition(n.NodeClaim, karpv1.ConditionTypeConsolidatable)
			continue
		}
		if !n.NodeClaim.StatusConditions().IsTrue(karpv1.ConditionTypeConsolidatable) {
			setCondition(n.NodeClaim, karpv1.ConditionTypeConsolidatable, now)
		}
	}
}

// podEventDedupe is the pod-event controller's dedupeTimeout
// (../nodeclaim/podevents/controller.go).
const podEventDedupe = 10 * time.Second

// PodEvent is the pod-event controller (../nodeclaim/podevents/controller.go) on a pod of the
// node bound, going terminal or terminating: its NodeClaim's last pod event becomes now,
// unless it was set less than podEventDedupe ago. It restarts the node's consolidateAfter.
func PodEvent(n *Node, now time.Time) {
	if n.NodeClaim == nil {
		return
	}
	if last := n.NodeClaim.Status.LastPodEventTime.Time; !last.IsZero() && now.Sub(last) < podEventDedupe {
		return
	}
	n.NodeClaim.Status.LastPodEventTime = metav1.NewTime(now)
}

// consolidatableAt is when the node becomes Consolidatable (zero: not by time alone).
func consolidatableAt(np *karpv1.NodePool, n *Node) time.Time {
	if np == nil || n.NodeClaim == nil || np.Spec.Disruption.ConsolidateAfter.Duration == nil || !n.Initialized() {
		return time.Time{}
	}
	from := n.NodeClaim.StatusConditions().Get(karpv1.ConditionTypeInitialized).LastTransitionTime.Time
	if !n.NodeClaim.Status.LastPodEventTime.IsZero() {
		from = n.NodeClaim.Status.LastPodEventTime.Time
	}
	return from.Add(*np.Spec.Disruption.ConsolidateAfter.Duration)
}

// MarkDrifted is the NodeClaim disruption controller's Drift
// (pkg/controllers/nodeclaim/disruption/drift.go, emulated in nodeclaim/disruption): Drifted
// by the NodePool hash, the requirements or the cloud (CloudDrift), as of the first pass that
// finds it; cleared when it no longer is. The instance-type check upstream makes an hour after
// creation is not made.
func (c *Cluster) MarkDrifted(now time.Time) {
	s := newSnapshot(c, Options{}, now)
	for _, n := range c.Nodes {
		np := s.pools[n.NodePool()]
		if n.NodeClaim == nil || np == nil {
			continue
		}
		hashed := ncdisruption.WithHash(np)
		var cloudDrift func() cloudprovider.DriftReason
		if c.CloudDrift != nil {
			cloudDrift = func() cloudprovider.DriftReason { return c.CloudDrift(np, n.NodeClaim) }
		}
		reason := ncdisruption.Drifted(hashed, n.NodeClaim, nil, cloudDrift)
		switch {
		case reason == "":
			clearCondition(n.NodeClaim, karpv1.ConditionTypeDrifted)
		case !n.NodeClaim.StatusConditions().IsTrue(karpv1.ConditionTypeDrifted):
			setCondition(n.NodeClaim, karpv1.ConditionTypeDrifted, now)
		}
	}
}

// Expired is a node the expiration controller deleted.
type Expired struct {
	Node    *Node
	At      time.Time
	Evicted []*corev1.Pod
	// GracePeriodEnded is set for a deleting node whose terminationGracePeriod ended: the
	// end of an earlier deletion's drain, not an expiry.
	GracePeriodEnded bool
}

// Expire is the NodeClaim expiration controller (pkg/controllers/nodeclaim/expiration): a
// NodeClaim past its creation plus expireAfter is deleted, outside every budget, with no
// replacement launched first; its drain respects PDBs and do-not-disrupt pods until its
// terminationGracePeriod. The controller has one worker and sleeps a second on the clock
// after each deletion (clock.Sleep(time.Second)), so the NodeClaims due are deleted a second
// apart, in the nodes' order, and one that falls due meanwhile is deleted in turn. It also
// terminates deleting nodes whose terminationGracePeriod ended, their pods evicted. It
// returns the clock after the last sleep (now when nothing expired).
func (c *Cluster) Expire(now time.Time) ([]Expired, time.Time) {
	var out []Expired
	at := now
	for _, n := range append([]*Node(nil), c.Nodes...) {
		if !n.terminateAt.IsZero() && !n.terminateAt.After(at) {
			evicted := c.recreate(n.Pods, at)
			c.Pending = append(c.Pending, evicted...)
			out = append(out, Expired{Node: n, At: at, Evicted: evicted, GracePeriodEnded: true})
			removeNode(c, n)
			continue
		}
		if n.NodeClaim == nil || n.MarkedForDeletion || n.NodeClaim.Spec.ExpireAfter.Duration == nil {
			continue
		}
		if at.Before(n.NodeClaim.CreationTimestamp.Add(*n.NodeClaim.Spec.ExpireAfter.Duration)) {
			continue
		}
		out = append(out, Expired{Node: n, At: at, Evicted: drain(c, n, at)})
		at = at.Add(expirationSleep)
	}
	return out, at
}

// expirationSleep is the expiration controller's sleep after each deletion.
const expirationSleep = time.Second

// expiresAt is when the node's NodeClaim expires, or a blocked drain ends (zero: never).
func expiresAt(n *Node) time.Time {
	if !n.terminateAt.IsZero() {
		return n.terminateAt
	}
	if n.NodeClaim == nil || n.MarkedForDeletion || n.NodeClaim.Spec.ExpireAfter.Duration == nil {
		return time.Time{}
	}
	return n.NodeClaim.CreationTimestamp.Add(*n.NodeClaim.Spec.ExpireAfter.Duration)
}

// isDisruptable is pod.IsDisruptable on the snapshot's clock.
func isDisruptable(s *snapshot, p *corev1.Pod) bool { return podutils.IsDisruptable(p, s.clock, nil) }
