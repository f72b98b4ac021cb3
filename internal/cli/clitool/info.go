package clitool

import (
	"fmt"
	"io"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// WriteVersion prints the version and where the embedded catalog's prices come
// from, with their snapshot dates, so that a cost in a report can be dated.
func WriteVersion(w io.Writer, version string) {
	fmt.Fprintf(w, "%s %s\n", Binary, version)
	for _, l := range catalog.Default().PriceProvenance() {
		fmt.Fprintf(w, "  %s\n", l)
	}
}

// WriteCodes lists the finding codes with their severity, name and title.
func WriteCodes(w io.Writer) {
	var b strings.Builder
	for _, r := range findings.All() {
		fmt.Fprintf(&b, "%s  %-7s  %-22s  %s\n", r.Code, r.Severity, r.Name, r.Title)
	}
	_, _ = io.WriteString(w, b.String())
}
