package report

import (
	"strings"
	"testing"
)

// A review that had nothing to review says what it reads; one that reviewed a pool does not.
func TestClosingLineSaysWhenNothingWasReviewed(t *testing.T) {
	for _, r := range []*Report{{}, {Files: 2, Clusters: []ClusterSummary{{Name: "a"}}}} {
		if got := ClosingLine(r); !strings.Contains(got, "nothing reviewed") || !strings.Contains(got, "not Terraform .tf files") {
			t.Errorf("%d files, nothing in them: %q", r.Files, got)
		}
	}
	if got := ClosingLine(&Report{Files: 2, Clusters: []ClusterSummary{{Name: "a", NodePools: 1}}, Objects: 1}); strings.Contains(got, "nothing reviewed") {
		t.Errorf("a pool: %q", got)
	}
}
