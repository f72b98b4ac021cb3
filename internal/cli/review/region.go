package review

import (
	"fmt"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
)

// NormalizeRegion turns a region as people write it ("West Europe", "westeurope", "us-east-1")
// into the ARM or AWS name and checks that a built-in cloud's embedded catalog knows it, so that a typo fails the run
// instead of checking against nothing. "" stays "" (no region given).
func NormalizeRegion(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	r := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	known := analysis.KnownRegions()
	if slices.Contains(known, r) {
		return r, nil
	}
	// Suggest the regions a typo or two away.
	var near []string
	for _, k := range known {
		if clitool.EditDistance(r, k) <= 2 {
			near = append(near, k)
		}
	}
	if len(near) > 0 {
		return "", fmt.Errorf("unknown region %q: neither an Azure nor an AWS region of the embedded catalogs (did you mean %s?)", s, strings.Join(near, ", "))
	}
	return "", fmt.Errorf("unknown region %q: neither an Azure region (e.g. westeurope) nor an AWS region (e.g. us-east-1) of the embedded catalogs", s)
}
