package crdresource

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
)

// FindingDetail is what a plan diagnostic of a finding says beyond the finding itself.
type FindingDetail struct {
	// Context says what the object was checked against ("Checked offline against westeurope
	// with AKSNodeClass default as planned."); empty when nothing needs saying.
	Context string
	// Suppress are the codes the object itself does not report (a NodePool's checks.suppress).
	Suppress []findings.Code
	// Silence says how the object silences the code, as a sentence with %q for the code;
	// empty: with the provider's checks.suppress.
	Silence string
}

// ProviderSilence says how to silence a code for every resource of the provider.
const ProviderSilence = "Silence this with checks = { suppress = [%q] } in the provider block."

// ReportFinding shows f in the plan as every resource shows a finding: on the attribute the
// Kubernetes field path is written in (see Report), through the provider's checks (Shown:
// notes and suppressed codes are not shown, strict mode makes warnings errors).
func (pc *PlanContext) ReportFinding(f findings.Finding, d FindingDetail) {
	var checks providerdata.Checks
	if pc.Data != nil {
		checks = pc.Data.Checks
	}
	f, ok := checks.Shown(f, d.Suppress)
	if !ok {
		return
	}
	pc.Report(f.Path, f.Severity() == findings.Error, f.Summary(), FindingText(f, d))
}

// AddFinding is ReportFinding for a resource outside the CRD engine, whose attribute the caller
// names (attr; ok false: the resource as a whole).
func AddFinding(diags *diag.Diagnostics, checks providerdata.Checks, attr path.Path, ok bool, f findings.Finding, d FindingDetail) {
	f, shown := checks.Shown(f, d.Suppress)
	if !shown {
		return
	}
	detail := FindingText(f, d)
	if ok {
		detail = fmt.Sprintf("Attribute %s: %s", attr, detail)
	}
	switch isError := f.Severity() == findings.Error; {
	case isError && ok:
		diags.AddAttributeError(attr, f.Summary(), detail)
	case isError:
		diags.AddError(f.Summary(), detail)
	case ok:
		diags.AddAttributeWarning(attr, f.Summary(), detail)
	default:
		diags.AddWarning(f.Summary(), detail)
	}
}

// FindingText is the detail of a finding's diagnostic: what was found, how to fix it, what it
// was checked against and how to silence it.
func FindingText(f findings.Finding, d FindingDetail) string {
	var b strings.Builder
	b.WriteString(f.Message)
	if f.Fix != "" {
		b.WriteString("\n\nFix: " + sentence(f.Fix))
	}
	silence := d.Silence
	if silence == "" {
		silence = ProviderSilence
	}
	b.WriteString("\n\n")
	if d.Context != "" {
		b.WriteString(d.Context + " ")
	}
	fmt.Fprintf(&b, silence, string(f.Code))
	return b.String()
}

// sentence ends s with a period unless it ends a sentence already.
func sentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}
