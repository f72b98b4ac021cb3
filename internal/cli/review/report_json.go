package review

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

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
		cp.Findings = []Finding{}
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

// jsonFinding is a finding as the JSON report writes it (JSONVersion 1): the severity it is
// reported with, the object and its location.
type jsonFinding struct {
	Code     findings.Code     `json:"code"`
	Severity findings.Severity `json:"severity"`
	Message  string            `json:"message"`
	Fix      string            `json:"fix,omitempty"`
	// Object is the object concerned, e.g. NodePool/general ("" for input problems).
	Object  string `json:"object,omitempty"`
	Cluster string `json:"cluster,omitempty"`
	Location
	Related []Location `json:"related,omitempty"`
}

// MarshalJSON writes the finding with the severity it is reported with.
func (f Finding) MarshalJSON() ([]byte, error) {
	return json.Marshal(jsonFinding{Code: f.Code, Severity: f.Severity(), Message: f.Message, Fix: f.Fix, Object: f.Object,
		Cluster: f.Cluster, Location: f.Location, Related: f.Related})
}

// UnmarshalJSON reads a finding the JSON report wrote (for programs that read reports back).
// A severity other than the registry's is taken as strict mode's or as one of the documented
// alternatives; an unknown code or an undocumented severity is an error.
func (f *Finding) UnmarshalJSON(b []byte) error {
	var j jsonFinding
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	r, ok := findings.Lookup(j.Code)
	if !ok {
		return fmt.Errorf("unknown finding code %q", j.Code)
	}
	ff := findings.Finding{Code: j.Code, Object: j.Object, Path: j.Field, Message: j.Message, Fix: j.Fix}
	switch {
	case j.Severity == r.Severity:
	case j.Severity == findings.Error && r.Severity == findings.Warning:
		ff = ff.Strict()
	case slices.Contains(r.Alternatives, j.Severity):
		ff = ff.As(j.Severity)
	default:
		return fmt.Errorf("%s is never reported as %s", j.Code, j.Severity)
	}
	*f = Finding{Finding: ff, Cluster: j.Cluster, Location: j.Location, Related: j.Related}
	return nil
}
