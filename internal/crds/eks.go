package crds

import (
	awsapis "github.com/aws/karpenter-provider-aws/pkg/apis"
	"github.com/awslabs/operatorpkg/object"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// ec2NodeClass is the EC2NodeClass CRD (karpenter.k8s.aws) embedded in the pinned
// github.com/aws/karpenter-provider-aws module. Only the node class is taken: the
// karpenter.sh CRDs stay AKS's (All), which this project installs and validates against.
var ec2NodeClass = object.Unmarshal[apiextensionsv1.CustomResourceDefinition](awsapis.EC2NodeClassCRD)

// EKS returns the CRDs of Karpenter's AWS provider that All lacks: EC2NodeClass. They are
// not part of All or Bundle, so that nothing installs them into an AKS cluster.
func EKS() []*apiextensionsv1.CustomResourceDefinition {
	return []*apiextensionsv1.CustomResourceDefinition{ec2NodeClass.DeepCopy()}
}

// Known returns All and EKS: every CRD a kind of this build is read from and validated by.
func Known() []*apiextensionsv1.CustomResourceDefinition {
	return append(All(), EKS()...)
}
