package review

import (
	"strings"
	"testing"
)

// KRP114's fix names what sets the region in a review (--region or the config file), not the
// provider's region, which a review has none of.
func TestUnknownRegionFixNamesTheFlag(t *testing.T) {
	out := runJSON(t, cleanPool, ExitFindings, "--region", "us-east-1", "-")
	var fixes []string
	for _, f := range out.Findings {
		if f.Code == "KRP114" {
			fixes = append(fixes, f.Fix)
		}
	}
	if len(fixes) != 1 || !strings.Contains(fixes[0], "--region") || strings.Contains(fixes[0], "provider") {
		t.Errorf("KRP114 fixes %q, want one naming --region", fixes)
	}
}
