package simulation

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// settleStart is the start state as the disruption emulation holds it, and the simulated
// clock's start: At when set, else the latest NodeClaim creation or SettleEpoch, whichever
// is later, so that a run repeats.
func (st *StartState) settleStart() ([]*disruption.Node, time.Time) {
	if st == nil || len(st.Nodes) == 0 {
		return nil, time.Time{}
	}
	at := st.At
	if at.IsZero() {
		at = SettleEpoch
		for _, n := range st.Nodes {
			if n.NodeClaim != nil && n.NodeClaim.CreationTimestamp.After(at) {
				at = n.NodeClaim.CreationTimestamp.Time
			}
		}
	}
	out := make([]*disruption.Node, 0, len(st.Nodes))
	for _, sn := range st.Nodes {
		out = append(out, settleNode(sn, at))
	}
	return out, at
}

// settleNode is a running node as the disruption emulation holds it: initialized, with its
// own NodeClaim's hash annotations, requirements and lifetime. A NodeClaim without a creation
// time is taken as created at the start.
func settleNode(sn StartNode, at time.Time) *disruption.Node {
	ex := sn.ExistingNode
	ex.Pods = append(ex.Pods[:0:0], ex.Pods...)
	created := at
	if sn.NodeClaim != nil && !sn.NodeClaim.CreationTimestamp.IsZero() {
		created = sn.NodeClaim.CreationTimestamp.Time
	}
	n := disruption.NewNode(ex, nil, created, created)
	if sn.NodeClaim == nil {
		n.NodeClaim = nil
	} else {
		nc := n.NodeClaim
		nc.Name = sn.NodeClaim.Name
		nc.CreationTimestamp = metav1.NewTime(created)
		for k, v := range sn.NodeClaim.Labels {
			nc.Labels[k] = v
		}
		for k, v := range sn.NodeClaim.Annotations {
			nc.Annotations[k] = v
		}
		nc.Spec = *sn.NodeClaim.Spec.DeepCopy()
	}
	for k, v := range sn.Annotations {
		n.Annotations[k] = v
	}
	return n
}
