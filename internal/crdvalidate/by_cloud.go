package crdvalidate

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// eksNodeClassGroup is the group of the AWS provider's EC2NodeClass: a NodePool whose
// nodeClassRef names it runs on EKS.
const eksNodeClassGroup = "karpenter.k8s.aws"

// ForObject returns the validator the API server of obj's cluster runs: For(gvk), except for a
// karpenter.sh/v1 NodePool whose nodeClassRef.group is karpenter.k8s.aws, which an EKS
// cluster's NodePool CRD judges (ForEKSNodePool). The provider's plan and the review both pick
// the validator here, so that they agree.
func ForObject(gvk schema.GroupVersionKind, obj map[string]any) (*Validator, error) {
	if gvk.Group == "karpenter.sh" && gvk.Version == "v1" && gvk.Kind == "NodePool" {
		if g, _, _ := unstructured.NestedString(obj, "spec", "template", "spec", "nodeClassRef", "group"); g == eksNodeClassGroup {
			return ForEKSNodePool()
		}
	}
	return For(gvk)
}
