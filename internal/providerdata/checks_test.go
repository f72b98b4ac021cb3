package providerdata

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// Shown applies the provider's and the object's suppressions and strict mode to every code
// alike, and never shows a note.
func TestChecksShown(t *testing.T) {
	warn := findings.New(findings.SubnetNotGranted, "spec.vnetSubnetID", "m", "f")
	for _, tc := range []struct {
		name   string
		checks Checks
		own    []findings.Code
		f      findings.Finding
		shown  bool
		want   findings.Severity
	}{
		{"warning", Checks{}, nil, warn, true, findings.Warning},
		{"strict", Checks{Strict: true}, nil, warn, true, findings.Error},
		{"provider suppress", Checks{Strict: true, Suppress: []findings.Code{findings.SubnetNotGranted}}, nil, warn, false, 0},
		{"object suppress", Checks{}, []findings.Code{findings.SubnetNotGranted}, warn, false, 0},
		{"other code suppressed", Checks{Suppress: []findings.Code{findings.NoLimits}}, nil, warn, true, findings.Warning},
		{"note", Checks{Strict: true}, nil, findings.New(findings.SpotSavings, "", "m", ""), false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.checks.Shown(tc.f, tc.own)
			if ok != tc.shown || ok && got.Severity() != tc.want {
				t.Errorf("Shown = %v, %v; want %v, %v", got.Severity(), ok, tc.want, tc.shown)
			}
		})
	}
}
