package provisioningsimulation

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// reservationDiags reports KRP119 on each element of nodepools whose limits let one
// provisioning round open fewer than three NodeClaims: it is why Karpenter's prediction leaves
// pods pending that the limits could hold. The pools here are YAML that no karpenter_nodepool
// plan may check, so the data source says it itself, on the element (at[i] for pools[i]).
// The provider's checks.enabled = false turns it off, as it does the resources' checks.
func reservationDiags(s *analysis.Analyzer, region string, pools []simmodel.SimPool, at []path.Path, checks providerdata.Checks, diags *diag.Diagnostics) {
	if checks.Disabled {
		return
	}
	for i, sp := range pools {
		a := s.Analyze(sp.Pool, analysis.Options{Region: region, NodeClass: sp.NodeClass})
		for _, f := range a.Findings {
			if f.Code == findings.LimitsReservation {
				report(diags, checks, at[i], f, "NodePool/"+sp.Pool.Name+" "+f.Path)
			}
		}
	}
}
