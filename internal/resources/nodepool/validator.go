package nodepool

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// validatorFor judges a pool for EKS (nodeClassRef.group karpenter.k8s.aws) by the NodePool
// CRD an EKS cluster serves, whose rules restrict the karpenter.k8s.aws label domain instead of
// AKS's domains and labels; nil (AKS's CRD) for every other pool.
func validatorFor(obj map[string]any) *crdvalidate.Validator {
	group, _, _ := unstructured.NestedString(obj, "spec", "template", "spec", "nodeClassRef", "group")
	if group != kinds.EC2NodeClass.GVK.Group {
		return nil
	}
	v, err := crdvalidate.ForEKSNodePool()
	if err != nil {
		return nil // a build defect; AKS's CRD still judges the pool (crds tests catch it)
	}
	return v
}
