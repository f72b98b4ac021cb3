// Package eks derives Karpenter instance types for EKS (the AWS provider's
// cloudprovider.InstanceType: requirements, capacity, overhead, offerings) from
// the embedded EC2 catalog and an EC2NodeClass's settings, offline.
//
// The derivation follows aws/karpenter-provider-aws v1.14.1
// pkg/providers/instancetype (NewInstanceType, computeRequirements,
// computeCapacity, ENILimitedPods, kubeReservedResources, evictionThreshold)
// and the AMI families' feature flags and default block devices
// (pkg/providers/amifamily). It is written here, not imported: that module
// requires k8s.io/api, apimachinery and client-go v0.35.3 where this project
// pins v0.35.1, so importing it would bump modules shared with the Azure side
// (see docs-notes/eks.md). Its faithfulness is checked twice: against the
// labels and resources upstream's own docs generator printed for every instance
// type (TestParityWithUpstreamDocs, instance_types_from_upstream_docs.json),
// and against upstream's NewInstanceType run in process on the same facts for
// several node classes, in the separate module ./upstreamparity, which may
// require the newer k8s.io modules (make parity-eks-upstream).
//
// What the offline data cannot give is stated, not guessed: the catalog has no
// zones (instance types carry no topology.kubernetes.io/zone requirement and
// offerings are regional) and no supported usage classes (every type is
// offered on-demand and spot; an offering is available only where a price is
// found, as upstream requires a price, with upstream's own fallbacks: see
// catalog.OfferingPrice).
package eks
