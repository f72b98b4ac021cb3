package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"path"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// SARIF 2.1.0 (OASIS), the subset code-scanning services read. Every rule of the registry is
// listed so that a ruleIndex means the same in every report of a version.
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	// ToolName names the tool in reports.
	ToolName = "terraform-provider-karpenter review"
	toolURI  = "https://github.com/karpenter-iac/terraform-provider-karpenter"
)

type SarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	ColumnKind  string            `json:"columnKind"`
	Results     []sarifResult     `json:"results"`
	Invocations []sarifInvocation `json:"invocations"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool `json:"executionSuccessful"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifText      `json:"help"`
	DefaultConfiguration sarifRuleLevel `json:"defaultConfiguration"`
}

type sarifRuleLevel struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]string `json:"properties,omitempty"`
}

type sarifLocation struct {
	ID               *int                   `json:"id,omitempty"`
	PhysicalLocation sarifPhysical          `json:"physicalLocation"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
	Message          *sarifText             `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifLogicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// WriteSARIF renders the report as a SARIF 2.1.0 log for code-scanning annotations. Plans have
// no source lines, so their findings point at the plan file and name the resource address
// as a logical location.
func WriteSARIF(w io.Writer, r *Report, toolVersion string) error {
	rules := findings.All()
	index := map[findings.Code]int{}
	driver := sarifDriver{Name: ToolName, Version: toolVersion, InformationURI: toolURI}
	for i, rule := range rules {
		index[rule.Code] = i
		driver.Rules = append(driver.Rules, sarifRule{
			ID: string(rule.Code), Name: rule.Name,
			ShortDescription:     sarifText{rule.Title},
			FullDescription:      sarifText{rule.Help},
			Help:                 sarifText{rule.Help},
			DefaultConfiguration: sarifRuleLevel{rule.Severity.String()},
		})
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, ColumnKind: "unicodeCodePoints", Results: []sarifResult{},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}}}
	for _, f := range r.Findings {
		// SARIF reads [text](target) in a message as a link (3.11.6): brackets from the
		// input are escaped, and control characters shown, as in the text report.
		msg := SarifEscape(f.Message)
		if f.Object != "" {
			msg = SarifEscape(f.Object) + ": " + msg
		}
		if f.Fix != "" {
			msg += "\nFix: " + SarifEscape(f.Fix)
		}
		res := sarifResult{
			RuleID: string(f.Code), RuleIndex: index[f.Code], Level: f.Severity().String(),
			Message:             sarifText{msg},
			Locations:           []sarifLocation{sarifLoc(f.Location, f.Object)},
			PartialFingerprints: map[string]string{"karpenterReview/v1": fingerprint(f)},
			Properties:          map[string]string{},
		}
		for i, rel := range f.Related {
			l := sarifLoc(rel, "")
			id := i + 1
			l.ID, l.Message = &id, &sarifText{"related"}
			res.RelatedLocations = append(res.RelatedLocations, l)
		}
		for k, v := range map[string]string{"field": f.Field, "attribute": f.Attribute, "cluster": f.Cluster, "object": f.Object, "fix": f.Fix} {
			if v != "" {
				res.Properties[k] = v
			}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(SarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

func sarifLoc(l source.Location, object string) sarifLocation {
	out := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: artifactURI(l.File)}}}
	if l.Line > 0 {
		out.PhysicalLocation.Region = &sarifRegion{StartLine: l.Line, StartColumn: l.Column}
	}
	switch {
	case l.Address != "":
		out.LogicalLocations = []sarifLogicalLocation{{FullyQualifiedName: l.Address, Kind: "resource"}}
	case object != "":
		out.LogicalLocations = []sarifLogicalLocation{{FullyQualifiedName: object, Kind: "object"}}
	}
	return out
}

// artifactURI turns a shown path into a URI reference: relative paths stay relative (to the
// repository root where CI runs the review), absolute ones become file URIs.
func artifactURI(p string) string {
	if strings.HasPrefix(p, "/") {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	segs := strings.Split(path.Clean(p), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// fingerprint identifies a finding across commits that move lines, so that code scanning
// keeps one alert per problem.
func fingerprint(f source.Finding) string {
	h := sha256.Sum256([]byte(strings.Join([]string{string(f.Code), f.File, f.Address, f.Object, f.Field, f.Cluster, f.Message}, "\x00")))
	return hex.EncodeToString(h[:16])
}
