package provider

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
)

// checkRegion judges the region the plan-time checks use once, on the attribute it comes from
// (at): a region no catalog knows is one error with the nearest regions, as `review --region`
// reports it, not KRP114 on every pool. It returns the region as the catalogs name it
// ("West Europe" → westeurope). With the checks disabled, or KRP114 suppressed in the
// provider's checks (a region newer than the catalogs), the region is left as written.
func checkRegion(data *providerdata.Data, at path.Path, diags *diag.Diagnostics) string {
	if data.Region == "" || data.Checks.Disabled || slices.Contains(data.Checks.Suppress, findings.UnknownRegion) {
		return data.Region
	}
	s, err := data.Analyzer()
	if err != nil {
		// The catalog's own error is reported where the checks load it.
		return data.Region
	}
	r, err := s.NormalizeRegion(data.Region)
	var unknown *analysis.UnknownRegionError
	if errors.As(err, &unknown) {
		fix := fmt.Sprintf("Set it to %s.", strings.Join(unknown.Near, " or "))
		if len(unknown.Near) == 0 {
			// Not a typo: perhaps a region newer than the embedded catalogs.
			fix = fmt.Sprintf("A region newer than the embedded catalogs can be added with checks.catalog_path (or the check skipped with checks.suppress = [%q]).", findings.UnknownRegion)
		}
		diags.AddAttributeError(at, "Unknown region",
			fmt.Sprintf("%s. The plan-time checks price and check every NodePool in this region. %s", err, fix))
		return data.Region
	}
	return r
}
