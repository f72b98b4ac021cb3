package report

import (
	"encoding/json"
	"io"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// JSONVersion is the version of the JSON report's layout; it changes only incompatibly.
const JSONVersion = 1

type jsonReport struct {
	Version int         `json:"version"`
	Tool    jsonTool    `json:"tool"`
	Summary jsonSummary `json:"summary"`
	Rules   []jsonRule  `json:"rules"`
	*Report
	// Pools, Findings and SuppressedFindings shadow the Report's: their prices reference
	// PriceSources (report_json_prices.go).
	Pools              []jsonPool        `json:"pools"`
	Findings           []jsonFindingOut  `json:"findings"`
	SuppressedFindings []jsonFindingOut  `json:"suppressedFindings,omitempty"`
	PriceSources       []jsonPriceSource `json:"priceSources,omitempty"`
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type jsonSummary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Notes    int `json:"notes"`
}

type jsonRule struct {
	Code     findings.Code     `json:"code"`
	Name     string            `json:"name"`
	Severity findings.Severity `json:"severity"`
	Title    string            `json:"title"`
	Help     string            `json:"help"`
}

// WriteJSON renders the report for programs: counts, the rules of the codes that occur, and
// the report's own fields (findings with their locations, clusters, pools, skipped inputs).
func WriteJSON(w io.Writer, r *Report, toolVersion string) error {
	out := jsonReport{
		Version: JSONVersion,
		Tool:    jsonTool{Name: ToolName, Version: toolVersion},
		Summary: jsonSummary{Errors: r.Count(findings.Error), Warnings: r.Count(findings.Warning), Notes: r.Count(findings.Note)},
		Rules:   []jsonRule{},
		Report:  r,
	}
	if r.Findings == nil {
		// An empty list, not null, so that consumers can iterate without a check.
		cp := *r
		cp.Findings = []source.Finding{}
		out.Report = &cp
	}
	out.Pools, out.Findings, out.SuppressedFindings, out.PriceSources = withPriceSources(r)
	seen := map[findings.Code]bool{}
	for _, rule := range findings.All() {
		for _, f := range r.Findings {
			if f.Code == rule.Code && !seen[rule.Code] {
				seen[rule.Code] = true
				out.Rules = append(out.Rules, jsonRule{rule.Code, rule.Name, rule.Severity, rule.Title, rule.Help})
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
