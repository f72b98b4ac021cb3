// Package providerdata is what the provider's Configure hands to its resources and data
// sources: the settings, the connections (connect.Clients) and the shared plan-time state
// (planstate.Board), per cluster of a fleet (ForCluster). It is a Terraform-facing helper
// between internal/provider and the resources. The connections are created on first use, so
// `terraform plan` of new resources needs no cluster and no cloud credentials.
package providerdata
