// Package functions holds the provider-defined functions. nodepool_from_yaml and
// aksnodeclass_from_yaml turn a Kubernetes manifest into the attribute shape of the matching
// resource, so one reviewed YAML file can feed Terraform, Bicep and GitOps alike. It is
// Terraform-facing: it reads manifests through internal/manifest, maps them onto each
// resource's Kind (internal/resources/crdresource), and imports no command.
package functions
