// Package instancetypes defines the karpenter_instance_types data source: the instance types
// Karpenter could launch for a set of requirements and node class settings in a region, with
// capacity, allocatable and labelled prices, worked out offline from the embedded catalogs.
// It is Terraform-facing: it maps Terraform values onto internal/analysis and imports no
// command.
package instancetypes
