package analysis

import (
	"fmt"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// NormalizeRegion turns a region as people write it ("West Europe", "westeurope", "us-east-1")
// into the name the built-in clouds' embedded catalogs use, and checks that one of them knows
// it, so that a typo fails instead of checking against nothing. "" stays "" (no region given).
func NormalizeRegion(region string) (string, error) { return normalizeRegion(region, builtin()) }

// NormalizeRegion is the package's NormalizeRegion over the solver's catalogs (with their
// overrides, which may add regions).
func (s *Analyzer) NormalizeRegion(region string) (string, error) {
	return normalizeRegion(region, s.clouds)
}

// UnknownRegionError is a region no catalog knows, with the regions a typo or two away.
type UnknownRegionError struct {
	Region string
	// Near are the known regions within two edits, sorted; Examples one region per cloud.
	Near, Examples []string
	// kinds names the clouds' regions ("an Azure region", "an AWS region").
	kinds []string
}

func (e *UnknownRegionError) Error() string {
	what := fmt.Sprintf("unknown region %q: neither %s of the catalogs", e.Region, strings.Join(e.kinds, " nor "))
	if len(e.Near) > 0 {
		return fmt.Sprintf("%s (did you mean %s?)", what, strings.Join(e.Near, ", "))
	}
	return fmt.Sprintf("%s (e.g. %s)", what, strings.Join(e.Examples, ", "))
}

func normalizeRegion(region string, clouds *cloud.Registry) (string, error) {
	if region == "" {
		return "", nil
	}
	r := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(region), " ", ""))
	e := &UnknownRegionError{Region: region}
	var known []string
	for _, c := range clouds.All() {
		if c.HasRegion(r) {
			return r, nil
		}
		known = append(known, c.Regions()...)
		e.kinds = append(e.kinds, "an "+c.Name()+" region")
		e.Examples = append(e.Examples, c.ExampleRegion())
	}
	slices.Sort(known)
	for _, k := range slices.Compact(known) {
		// The distance is at least the difference in length: a long value costs nothing.
		if diff := len(k) - len(r); diff <= 2 && diff >= -2 && distance(r, k) <= 2 {
			e.Near = append(e.Near, k)
		}
	}
	return "", e
}
