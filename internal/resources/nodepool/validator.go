package nodepool

import (
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// validatorFor judges a pool for EKS (nodeClassRef.group karpenter.k8s.aws) by the NodePool
// CRD an EKS cluster serves, whose rules restrict the karpenter.k8s.aws label domain instead of
// AKS's domains and labels (crdvalidate.NodePoolFor, which the review uses too).
func validatorFor(obj map[string]any) *crdvalidate.Validator {
	v, err := crdvalidate.NodePoolFor(kinds.NodePool.GVK, crdvalidate.NodePoolGroup(obj))
	if err != nil {
		panic(err) // the CRDs are embedded: a build defect, which the crdvalidate tests catch
	}
	return v
}
