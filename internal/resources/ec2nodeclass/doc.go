// Package ec2nodeclass defines the karpenter_ec2nodeclass resource: a typed
// karpenter.k8s.aws/v1 EC2NodeClass (Karpenter on EKS), validated at plan time against the CRD
// of the pinned github.com/aws/karpenter-provider-aws module and written with server-side
// apply, as karpenter_aksnodeclass is for AKS. It is Terraform-facing and configures the CRD
// resource engine (internal/resources/crdresource); it never imports another resource or a
// data source.
package ec2nodeclass
