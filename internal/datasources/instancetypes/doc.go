// Package instancetypes defines the karpenter_instance_types data source: the VM sizes that
// Karpenter on AKS could launch for a set of requirements and AKSNodeClass settings in a
// region, with capacity, allocatable and labelled prices, worked out offline from the
// embedded catalog.
// It is Terraform-facing: it maps Terraform values onto internal/analysis and imports no
// command.
package instancetypes
