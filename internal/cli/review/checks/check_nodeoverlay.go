package checks

import (
	"context"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// CheckNodeOverlays reports NodeOverlay objects on a cluster whose Karpenter runs without the
// NodeOverlay feature gate (KRP408): the API server stores them, but Karpenter neither reads
// them nor changes any price or capacity for them. The gate is off in Karpenter's defaults and
// in the Azure provider's chart.
func CheckNodeOverlays(_ context.Context, c *assemble.Cluster) []source.Finding {
	if c.Target.RunsNodeOverlay() {
		return nil
	}
	var out []source.Finding
	for _, o := range c.NodeOverlays {
		out = append(out, o.Finding(findings.FeatureNotRunByTarget, "kind",
			"NodeOverlay objects only take effect with the NodeOverlay feature gate, which is off (target: "+c.Target.String()+"); Karpenter ignores this overlay's price and capacity adjustments",
			"Enable NodeOverlay (the chart's settings.featureGates.nodeOverlay) and say so with featureGates in .karpenter-review.yaml, or remove the overlay."))
	}
	return out
}
