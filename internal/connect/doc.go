// Package connect holds the provider's connections to the Kubernetes API server, to Azure and
// to AWS, each created on first use. It is a Terraform-facing helper: it builds on the domain
// clients (internal/clients); the provider, providerdata and the resources use it. Nothing
// connects until a resource asks, so `terraform plan` of new resources needs no cluster and no
// cloud credentials. The one plan-time read, a new NodePool's node class (PlanTimeRead), may
// connect, but its failure fails nothing. Plan-time state shared between resources is internal/planstate.
package connect
