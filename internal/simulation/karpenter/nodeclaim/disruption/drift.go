package disruption

import (
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// The reasons Karpenter's Drift controller gives, as it names them.
const (
	NodePoolDrifted      cloudprovider.DriftReason = "NodePoolDrifted"
	RequirementsDrifted  cloudprovider.DriftReason = "RequirementsDrifted"
	InstanceTypeNotFound cloudprovider.DriftReason = "InstanceTypeNotFound"
)

// WithHash returns the NodePool with the annotations Karpenter's NodePool hash controller
// writes on it (pkg/controllers/nodepool/hash): the template's hash and the hash version.
// A NodePool read from a repository has neither; one must be defaulted as the API server
// defaults it, since the hash covers the defaulted template.
func WithHash(np *karpv1.NodePool) *karpv1.NodePool {
	out := np.DeepCopy()
	if out.Annotations == nil {
		out.Annotations = map[string]string{}
	}
	out.Annotations[karpv1.NodePoolHashAnnotationKey] = np.Hash()
	out.Annotations[karpv1.NodePoolHashVersionAnnotationKey] = karpv1.NodePoolHashVersion
	return out
}

// Drifted is the Drift controller's verdict (Drift.Reconcile and isDrifted): why it marks the
// NodeClaim Drifted against the NodePool, or "" when it does not. A NodeClaim not yet launched
// is never drifted. its are the pool's instance types, nil to skip the check Karpenter makes
// only an hour after a NodeClaim's creation; cloudDrift is the cloud provider's IsDrifted,
// asked last as upstream asks it.
func Drifted(nodePool *karpv1.NodePool, nodeClaim *karpv1.NodeClaim, its []*cloudprovider.InstanceType, cloudDrift func() cloudprovider.DriftReason) cloudprovider.DriftReason {
	if !nodeClaim.StatusConditions().Get(karpv1.ConditionTypeLaunched).IsTrue() {
		return ""
	}
	if r := areStaticFieldsDrifted(nodePool, nodeClaim); r != "" {
		return r
	}
	if r := areRequirementsDrifted(nodePool, nodeClaim); r != "" {
		return r
	}
	if its != nil {
		if r := instanceTypeNotFound(its, nodeClaim); r != "" {
			return r
		}
	}
	if cloudDrift != nil {
		return cloudDrift()
	}
	return ""
}

// areStaticFieldsDrifted compares the NodePool's hash with the one its NodeClaim was created
// with, when both carry the same hash version.
func areStaticFieldsDrifted(nodePool *karpv1.NodePool, nodeClaim *karpv1.NodeClaim) cloudprovider.DriftReason {
	nodePoolHash, foundNodePoolHash := nodePool.Annotations[karpv1.NodePoolHashAnnotationKey]
	nodePoolHashVersion, foundNodePoolHashVersion := nodePool.Annotations[karpv1.NodePoolHashVersionAnnotationKey]
	nodeClaimHash, foundNodeClaimHash := nodeClaim.Annotations[karpv1.NodePoolHashAnnotationKey]
	nodeClaimHashVersion, foundNodeClaimHashVersion := nodeClaim.Annotations[karpv1.NodePoolHashVersionAnnotationKey]
	if !foundNodePoolHash || !foundNodePoolHashVersion || !foundNodeClaimHash || !foundNodeClaimHashVersion {
		return ""
	}
	if nodePoolHashVersion != nodeClaimHashVersion {
		return ""
	}
	if nodePoolHash != nodeClaimHash {
		return NodePoolDrifted
	}
	return ""
}

// areRequirementsDrifted: every requirement of the NodePool must be compatible with the
// NodeClaim's labels.
func areRequirementsDrifted(nodePool *karpv1.NodePool, nodeClaim *karpv1.NodeClaim) cloudprovider.DriftReason {
	nodePoolReq := scheduling.NewNodeSelectorRequirementsWithMinValues(nodePool.Spec.Template.Spec.Requirements...)
	nodeClaimReq := scheduling.NewLabelRequirements(nodeClaim.Labels)
	if nodeClaimReq.Compatible(nodePoolReq) != nil {
		return RequirementsDrifted
	}
	return ""
}

// instanceTypeNotFound: the NodeClaim's instance type is no longer listed for the pool, or has
// no offering its labels are compatible with (a reserved NodeClaim may also be on-demand).
func instanceTypeNotFound(its []*cloudprovider.InstanceType, nodeClaim *karpv1.NodeClaim) cloudprovider.DriftReason {
	var it *cloudprovider.InstanceType
	for _, c := range its {
		if c.Name == nodeClaim.Labels[corev1.LabelInstanceTypeStable] {
			it = c
			break
		}
	}
	if it == nil {
		return InstanceTypeNotFound
	}
	reqs := scheduling.NewLabelRequirements(nodeClaim.Labels)
	if nodeClaim.Labels[karpv1.CapacityTypeLabelKey] == karpv1.CapacityTypeReserved {
		reqs[karpv1.CapacityTypeLabelKey] = scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeReserved, karpv1.CapacityTypeOnDemand)
		for label := range cloudprovider.ReservedCapacityLabels {
			delete(reqs, label)
		}
	}
	if !it.Offerings.HasCompatible(reqs) {
		return InstanceTypeNotFound
	}
	return ""
}
