// Package aksnodeclass defines the karpenter_aksnodeclass resource: a typed
// karpenter.azure.com/v1beta1 AKSNodeClass, validated at plan time and written with
// server-side apply. It is Terraform-facing and configures the CRD resource engine
// (internal/resources/crdresource); it never imports another resource or a data source.
package aksnodeclass
