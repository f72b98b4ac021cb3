// Package providerdata is what the provider's Configure hands to its resources and data
// sources: the settings, the connections (connect.Clients, created on first use, so that
// `terraform plan` of new resources needs no cluster and no Azure credentials), and the
// plan-time state the resources share (planstate.Board).
package providerdata

import (
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider/connect"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider/planstate"
)

// Data is shared by all resources of one provider instance.
type Data struct {
	// Region is the Azure region plan-time checks price and check against ("" = all regions).
	Region string
	// Checks configure the plan-time provisioning checks.
	Checks Checks
	// Clients are the Kubernetes and Azure connections, created on first use.
	Clients *connect.Clients
	// Plan is what resources learn from each other during a plan, stage by stage.
	Plan *planstate.Board

	solver lazySolver
}

// New returns provider data over the given clients, with nothing planned yet.
func New(region string, clients *connect.Clients) *Data {
	return &Data{Region: region, Clients: clients, Plan: planstate.New()}
}
