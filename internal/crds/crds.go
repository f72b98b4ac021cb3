// Package crds exposes the Karpenter CRDs exactly as AKS ships them, taken from the pinned
// github.com/Azure/karpenter-provider-azure module rather than copied into this repository.
package crds

import (
	azapis "github.com/Azure/karpenter-provider-azure/pkg/apis"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// All returns the NodePool, NodeClaim, NodeOverlay and AKSNodeClass CRDs.
func All() []*apiextensionsv1.CustomResourceDefinition {
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(azapis.CRDs))
	for _, c := range azapis.CRDs {
		out = append(out, c.DeepCopy())
	}
	return out
}
