package kinds

import "k8s.io/apimachinery/pkg/runtime/schema"

// AKSNodeClass is karpenter.azure.com/v1beta1 AKSNodeClass, the node class of Karpenter's
// Azure provider (AKS Node Auto Provisioning and self-hosted Karpenter on AKS).
var AKSNodeClass = &Kind{
	GVK:      schema.GroupVersionKind{Group: "karpenter.azure.com", Version: "v1beta1", Kind: "AKSNodeClass"},
	Resource: "aksnodeclasses",
	Role:     NodeClass,
	Cloud:    "aks",
}
