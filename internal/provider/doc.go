// Package provider is the karpenter Terraform provider: its configuration, and the list of
// resources, data sources and functions it serves. It is the top of the Terraform-facing
// layer: only main.go and internal/testsupport/acctest import it, and it imports no command.
package provider
