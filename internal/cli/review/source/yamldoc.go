package source

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
)

// YAMLDoc is one document of a YAML stream, as internal/manifest reads it.
type YAMLDoc struct {
	Line int // first line of the document in its file
	// Value is the document as kubectl, Flux and Argo CD read it (sigs.k8s.io/yaml: YAML to
	// JSON, integers as int64).
	Value any
	// Fields are the positions of its fields.
	Fields Positions
	// Template is set when the document fails to parse because of Go template actions
	// ({{ }}): without them it would parse.
	Template bool
}

// ParseYAMLStream splits a multi-document stream and parses each document on its own, so a
// malformed document is reported at its line and does not hide the documents after it. The
// reader is internal/manifest's, the one the functions and the simulation use too.
func ParseYAMLStream(file string, data []byte) ([]YAMLDoc, []Finding) {
	return parseStream(file, data, true)
}

// parseStream is parseYAMLStream; without whole, documents the review passes over (other
// kinds, no kind at all) are only checked for syntax.
func parseStream(file string, data []byte, whole bool) ([]YAMLDoc, []Finding) {
	var opts manifest.Options
	if !whole {
		opts.PassOver = passedOver
	}
	docs, probs := manifest.Read(file, data, opts)
	out := make([]Finding, 0, len(probs))
	for _, p := range probs {
		out = append(out, problemFinding(p))
	}
	res := make([]YAMLDoc, 0, len(docs))
	for _, d := range docs {
		res = append(res, YAMLDoc{Line: d.Line, Value: d.Value, Fields: d.Fields})
	}
	return res, out
}

func problemFinding(p manifest.Problem) Finding {
	return FileFinding(p.Code, Location{File: p.File, Line: p.Line}, p.Message, p.Fix)
}

func TemplateFinding(file string, line int) Finding {
	return FileFinding(manifest.UnrenderedTemplate, Location{File: file, Line: line},
		"the document holds template actions ({{ ... }}) and is not a manifest; it was not reviewed",
		"Render it and review the result, e.g. helm template RELEASE CHART | terraform-provider-karpenter review -")
}

// passedOver reports whether a document is one the review ignores, by its top-level
// apiVersion and kind written as plain strings (or absent): not of a Karpenter group, not a
// v1 List and not a kustomization.
func passedOver(apiVersion, kind string) bool {
	if apiVersion == "v1" && kind == "List" || strings.HasPrefix(apiVersion, "kustomize.config.k8s.io/") {
		return false
	}
	if gv, err := schema.ParseGroupVersion(apiVersion); err == nil && strings.HasSuffix(kind, "NodeClass") && OtherClouds[gv.Group] != "" {
		return false // another cloud's node class: the review says it skipped it (KRP011)
	}
	v := Classify(apiVersion, kind)
	return !v.Review && v.Problem == ""
}
