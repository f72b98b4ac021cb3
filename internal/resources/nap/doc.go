// Package nap is the karpenter_aks_node_auto_provisioning resource: it makes an existing AKS
// cluster ready for Karpenter-managed nodes. It checks the cluster's prerequisites and sets its
// node provisioning mode (AKS Node Auto Provisioning). It grants the cluster identity Network
// Contributor on the custom VNets or subnets the nodes use. It waits until the Karpenter CRDs
// are Established, optionally installing them for self-hosted Karpenter, so NodePools in the
// same apply can be created right after. It is Terraform-facing and never imports another
// resource or a data source.
package nap
