// Package nodepool defines the karpenter_nodepool resource: a typed karpenter.sh/v1 NodePool,
// validated at plan time and written with server-side apply. It is Terraform-facing and
// configures the CRD resource engine (internal/resources/crdresource) with the pool's plan-time
// checks and its analysis attribute; it never imports another resource or a data source.
package nodepool
