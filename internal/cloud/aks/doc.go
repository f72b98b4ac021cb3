// Package aks is the Azure cloud behind the seam (internal/cloud). It derives Karpenter
// instance types from catalog SKUs as github.com/Azure/karpenter-provider-azure v1.14.2
// (pkg/providers/instancetype) builds them: labels, requirements, capacity, kube-reserved,
// eviction threshold, allocatable, offerings per zone and capacity type, and the SKU filter.
// It is in the domain, below the analysis and the simulation. Upstream's helpers are imported
// where they need no live client (skewer, pkg/utils, the v1beta1 label constants, Karpenter's
// scheduling and cloudprovider types). The provider package itself needs Azure clients, so its
// construction is re-expressed here and held to its golden output.
package aks
