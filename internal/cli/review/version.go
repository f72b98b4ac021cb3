package review

import (
	"fmt"
	"io"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// WriteVersion prints the version and where the embedded catalog's prices come
// from, with their snapshot dates, so that a cost in a report can be dated.
func WriteVersion(w io.Writer, version string) {
	fmt.Fprintf(w, "terraform-provider-karpenter %s\n", version)
	for _, l := range catalog.Default().PriceProvenance() {
		fmt.Fprintf(w, "  %s\n", l)
	}
}
