// Package crds exposes the Karpenter CRDs exactly as AKS ships them, and as the AWS provider
// ships them for EKS. They are taken from the pinned github.com/Azure/karpenter-provider-azure
// and github.com/aws/karpenter-provider-aws modules, not copied into this repository. It is a
// domain leaf: kinds, crdvalidate and the test API server read it.
package crds
