package simulation

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/client-go/kubernetes/scheme"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	pdbutils "sigs.k8s.io/karpenter/pkg/utils/pdb"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
)

// partDeleting parts the nodes as the provisioner does (StateNodes.Active and Deleting):
// StateNode.Deleted is a NodeClaim deleting or InstanceTerminating, or a Node without a
// NodeClaim deleting.
func partDeleting(nodes []StartNode, snap *clusterstate.Snapshot) (active, deleting []StartNode) {
	deletingNode := map[string]bool{}
	for _, n := range snap.Nodes {
		deletingNode[n.Name] = n.DeletionTimestamp != nil
	}
	for _, n := range nodes {
		c := n.NodeClaim
		gone := (c != nil && (c.DeletionTimestamp != nil || c.StatusConditions().Get(karpv1.ConditionTypeInstanceTerminating).IsTrue())) ||
			(c == nil && deletingNode[n.Name])
		if gone {
			deleting = append(deleting, n)
		} else {
			active = append(active, n)
		}
	}
	return active, deleting
}

// reschedulable are the pods of deleting nodes the provisioner schedules again
// (StateNodes.CurrentlyReschedulablePods): Karpenter's own pdb.Limits.IsCurrentlyReschedulable
// at now, over the snapshot's PodDisruptionBudgets (held in an in-memory client, as its
// NewLimits reads them).
func reschedulable(nodes []StartNode, pdbs []*policyv1.PodDisruptionBudget, now time.Time) []*corev1.Pod {
	if len(nodes) == 0 {
		return nil
	}
	objs := make([]client.Object, len(pdbs))
	for i, b := range pdbs {
		objs[i] = b.DeepCopy()
	}
	limits, err := pdbutils.NewLimits(context.Background(), fake.NewClientBuilder().WithScheme(scheme.Scheme).WithObjects(objs...).Build())
	if err != nil {
		return nil
	}
	clk := clocktesting.NewFakeClock(now)
	var out []*corev1.Pod
	for _, n := range nodes {
		for _, p := range n.Pods {
			if limits.IsCurrentlyReschedulable(p, clk, nil) {
				out = append(out, p)
			}
		}
	}
	return out
}
