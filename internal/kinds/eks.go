package kinds

import "k8s.io/apimachinery/pkg/runtime/schema"

// EC2NodeClass is karpenter.k8s.aws/v1 EC2NodeClass, the node class of Karpenter's AWS
// provider (EKS).
var EC2NodeClass = &Kind{
	GVK:      schema.GroupVersionKind{Group: "karpenter.k8s.aws", Version: "v1", Kind: "EC2NodeClass"},
	Resource: "ec2nodeclasses",
	Role:     NodeClass,
	Cloud:    "eks",
}
