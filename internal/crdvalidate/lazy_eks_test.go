package crdvalidate

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Validating AKS kinds does not compile the EC2NodeClass CRD's rules; an EKS kind does.
func TestEKSValidatorsBuiltOnDemand(t *testing.T) {
	eks := sets[1]
	if eks.validators != nil {
		t.Skip("an earlier test of this binary asked for an EKS kind")
	}
	if _, err := For(schema.GroupVersionKind{Group: "karpenter.sh", Version: "v1", Kind: "NodePool"}); err != nil {
		t.Fatal(err)
	}
	if eks.validators != nil {
		t.Error("a NodePool lookup built the EKS validators")
	}
	if _, err := For(schema.GroupVersionKind{Group: "karpenter.k8s.aws", Version: "v1", Kind: "EC2NodeClass"}); err != nil {
		t.Fatal(err)
	}
	if eks.validators == nil {
		t.Error("EC2NodeClass's validator is not in the EKS set")
	}
}
