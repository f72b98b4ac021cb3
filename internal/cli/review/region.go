package review

import (
	"fmt"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
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
		if editDistance(r, k) <= 2 {
			near = append(near, k)
		}
	}
	if len(near) > 0 {
		return "", fmt.Errorf("unknown region %q: neither an Azure nor an AWS region of the embedded catalogs (did you mean %s?)", s, strings.Join(near, ", "))
	}
	return "", fmt.Errorf("unknown region %q: neither an Azure region (e.g. westeurope) nor an AWS region (e.g. us-east-1) of the embedded catalogs", s)
}

// editDistance is the Levenshtein distance of two short ASCII names.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
