package providerdata

import (
	"slices"
	"sync"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// Checks are the provider-wide settings of the plan-time provisioning checks.
type Checks struct {
	// Disabled turns the solver's checks off (CRD validation still runs).
	Disabled bool
	// Strict raises every warning to an error, for CI gates.
	Strict bool
	// NoClusterImpact turns off the plan-time warning of the running nodes a change drifts
	// (checks.cluster_impact = false).
	NoClusterImpact bool
	// CatalogPath is an override file applied to the embedded SKU catalog.
	CatalogPath string
	// Unknown names the provider settings that shape plan-time results (region, checks) and
	// are known only after apply: results computed from them are unknown until then, since
	// the plan Terraform makes during apply sees their values.
	Unknown []string
	// Target is the Karpenter the cluster runs, for the checks of fields it ignores.
	Target analysis.Target
	// Suppress are the codes no resource of this provider reports as a diagnostic
	// (checks.suppress of the provider block); a NodePool adds its own.
	Suppress []findings.Code
}

// Shown is how a plan shows f: as strict mode reports it, or not at all (ok false). A note is
// not shown: it is listed only in a NodePool's analysis. Nor is a code the provider or the
// object itself suppresses (objectSuppress: a NodePool's checks.suppress). Every resource
// reports its findings through it, so suppression and strict mode apply to every code alike.
func (c Checks) Shown(f findings.Finding, objectSuppress []findings.Code) (findings.Finding, bool) {
	if f.Severity() == findings.Note || slices.Contains(c.Suppress, f.Code) || slices.Contains(objectSuppress, f.Code) {
		return f, false
	}
	if c.Strict {
		f = f.Strict()
	}
	return f, true
}

// lazySolver is the solver over the catalog, loaded on the first plan that needs it.
type lazySolver struct {
	once   sync.Once
	solver *analysis.Analyzer
	err    error
}

// Analyzer returns the solver over the (possibly overridden) catalog, loaded on first use.
func (d *Data) Analyzer() (*analysis.Analyzer, error) {
	d.solver.once.Do(func() {
		cat, err := catalog.Load(d.Checks.CatalogPath)
		if err != nil {
			d.solver.err = err
			return
		}
		d.solver.solver = analysis.New(cat)
	})
	return d.solver.solver, d.solver.err
}
