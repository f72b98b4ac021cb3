package crds

import (
	awsapis "github.com/aws/karpenter-provider-aws/pkg/apis"
	"github.com/awslabs/operatorpkg/object"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// eksNodePool is the karpenter.sh NodePool CRD as the pinned AWS provider ships it: the same
// schema as AKS's, but its CEL rules restrict the karpenter.k8s.aws label domain (to the AWS
// provider's well-known labels) instead of karpenter.azure.com and kubernetes.azure.com.
var eksNodePool = object.Unmarshal[apiextensionsv1.CustomResourceDefinition](awsapis.NodePoolCRD)

// EKSNodePool returns the NodePool CRD an EKS cluster has, which the API server validates an
// EKS NodePool with. It is in neither All nor Known: GVK lookups keep resolving to AKS's.
func EKSNodePool() *apiextensionsv1.CustomResourceDefinition { return eksNodePool.DeepCopy() }
