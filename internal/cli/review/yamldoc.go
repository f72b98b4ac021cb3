package review

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
)

// yamlDoc is one document of a YAML stream, as internal/manifest reads it.
type yamlDoc struct {
	line int // first line of the document in its file
	// value is the document as kubectl, Flux and Argo CD read it (sigs.k8s.io/yaml: YAML to
	// JSON, integers as int64).
	value any
	// fields are the positions of its fields.
	fields positions
	// template is set when the document fails to parse because of Go template actions
	// ({{ }}): without them it would parse.
	template bool
}

// parseYAMLStream splits a multi-document stream and parses each document on its own, so a
// malformed document is reported at its line and does not hide the documents after it. The
// reader is internal/manifest's, the one the functions and the simulation use too.
func parseYAMLStream(file string, data []byte) ([]yamlDoc, []Finding) {
	return parseStream(file, data, true)
}

// parseStream is parseYAMLStream; without whole, documents the review passes over (other
// kinds, no kind at all) are only checked for syntax.
func parseStream(file string, data []byte, whole bool) ([]yamlDoc, []Finding) {
	var opts manifest.Options
	if !whole {
		opts.PassOver = passedOver
	}
	docs, probs := manifest.Read(file, data, opts)
	out := make([]Finding, 0, len(probs))
	for _, p := range probs {
		out = append(out, problemFinding(p))
	}
	res := make([]yamlDoc, 0, len(docs))
	for _, d := range docs {
		res = append(res, yamlDoc{line: d.Line, value: d.Value, fields: d.Fields})
	}
	return res, out
}

func problemFinding(p manifest.Problem) Finding {
	return fileFinding(p.Code, Location{File: p.File, Line: p.Line}, p.Message, p.Fix)
}

func templateFinding(file string, line int) Finding {
	return fileFinding(manifest.UnrenderedTemplate, Location{File: file, Line: line},
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
	if gv, err := schema.ParseGroupVersion(apiVersion); err == nil && strings.HasSuffix(kind, "NodeClass") && otherClouds[gv.Group] != "" {
		return false // another cloud's node class: the review says it skipped it (KRP011)
	}
	v := classify(apiVersion, kind)
	return !v.review && v.problem == ""
}
