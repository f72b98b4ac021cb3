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

// eksNodePool is the karpenter.sh NodePool CRD as the pinned AWS provider ships it: the same
// group, version and schema as All's (AKS's), but its CEL rules restrict the karpenter.k8s.aws
// label domain where AKS's restrict karpenter.azure.com, kubernetes.azure.com and four
// AKS labels. Same GVK, so it is in neither All nor Known.
var eksNodePool = object.Unmarshal[apiextensionsv1.CustomResourceDefinition](awsapis.NodePoolCRD)

// EKSNodePool returns the NodePool CRD an EKS cluster with Karpenter v1.14 serves, the one a
// NodePool for EKS (nodeClassRef.group karpenter.k8s.aws) is validated against.
func EKSNodePool() *apiextensionsv1.CustomResourceDefinition { return eksNodePool.DeepCopy() }

// EKS returns the CRDs of Karpenter's AWS provider that All lacks: EC2NodeClass. They are
// not part of All or Bundle, so that nothing installs them into an AKS cluster.
func EKS() []*apiextensionsv1.CustomResourceDefinition {
	return []*apiextensionsv1.CustomResourceDefinition{ec2NodeClass.DeepCopy()}
}

// Known returns All and EKS: every CRD a kind of this build is read from and validated by.
func Known() []*apiextensionsv1.CustomResourceDefinition {
	return append(All(), EKS()...)
}
