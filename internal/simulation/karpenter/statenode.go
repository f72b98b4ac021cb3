package karpenter

import (
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// LaunchedNode is the node a launched NodeClaim becomes once it registers and initializes: a
// state node with its Node. Its labels are the single values of the requirements of the
// NodeClaim, its instance type and its offering, and the pool's labels. It has the pool's
// taints, and the instance type's capacity and allocatable. The NodeClaim's pods are bound
// to it. name is also its hostname. It is nil when nothing launched.
func LaunchedNode(nc *NodeClaim, np *karpv1.NodePool, name string) *ExistingNode {
	if nc.Launch == nil {
		return nil
	}
	labels := map[string]string{}
	for _, reqs := range []scheduling.Requirements{nc.Requirements, nc.Launch.InstanceType.Requirements, nc.Launch.Offering.Requirements} {
		for k, r := range reqs {
			if r.Operator() == corev1.NodeSelectorOpIn && r.Len() == 1 {
				labels[k] = r.Values()[0]
			}
		}
	}
	for k, v := range np.Spec.Template.Labels {
		labels[k] = v
	}
	labels[karpv1.NodePoolLabelKey] = np.Name
	labels[corev1.LabelHostname] = name
	return &ExistingNode{
		Name:        name,
		Labels:      labels,
		Taints:      np.Spec.Template.Spec.Taints,
		Allocatable: nc.Launch.InstanceType.Allocatable(),
		Capacity:    nc.Launch.InstanceType.Capacity,
		Pods:        nc.Pods,
	}
}
