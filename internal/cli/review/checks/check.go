package checks

import (
	"context"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
)

// Check judges the objects of one cluster. It reports findings with codes from
// internal/findings; Object.Finding fills in the severity and location. Checks must not
// modify the cluster: they run one after another on the same objects.
type Check func(ctx context.Context, c *assemble.Cluster) []source.Finding

// DefaultChecks are the checks that need no SKU catalog. The provisioning solver adds its
// own Check next to them.
func DefaultChecks() []Check {
	return []Check{CheckSchema, CheckNodeClassRefs, CheckEqualWeights, CheckProvisioning, CheckNodeOverlays, CheckEC2NodeClasses}
}
