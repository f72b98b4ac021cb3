package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// yamlDoc is one document of a YAML stream.
type yamlDoc struct {
	line int // first line of the document in its file
	// value is the document as kubectl, Flux and Argo CD read it (sigs.k8s.io/yaml: YAML to
	// JSON, integers as int64); nil for an empty document.
	value any
	// fields are the positions of its fields, from a second parse that keeps them.
	fields positions
	// template is set when the document fails to parse because of Go template actions
	// ({{ }}): without them it would parse.
	template bool
}

// parseYAMLStream splits a multi-document stream and parses each document on its own, so a
// malformed document is reported at its line and does not hide the documents after it.
func parseYAMLStream(file string, data []byte) ([]yamlDoc, []Finding) {
	return parseStream(file, data, true)
}

// parseStream is parseYAMLStream; without whole, documents the review passes over (other
// kinds, no kind at all) are only checked for syntax.
func parseStream(file string, data []byte, whole bool) ([]yamlDoc, []Finding) {
	var docs []yamlDoc
	var out []Finding
	for _, chunk := range splitDocuments(data) {
		doc, err := parseDocument(file, chunk.line, chunk.text, whole)
		if err != nil {
			if doc.template {
				out = append(out, templateFinding(file, chunk.line))
				continue
			}
			out = append(out, err.(*parseError).finding())
			continue
		}
		if doc.value != nil {
			docs = append(docs, doc)
		}
	}
	return docs, out
}

func templateFinding(file string, line int) Finding {
	return fileFinding(findings.UnrenderedTemplate, Location{File: file, Line: line},
		"the document holds template actions ({{ ... }}) and is not a manifest; it was not reviewed",
		"Render it and review the result, e.g. helm template RELEASE CHART | terraform-provider-karpenter review -")
}

type chunk struct {
	line int
	text []byte
}

// splitDocuments cuts a stream at its document markers (a line starting with ---). A marker
// line can only start a document, even inside what looks like a block scalar, so this cut is
// the one a YAML parser makes.
func splitDocuments(data []byte) []chunk {
	var out []chunk
	lines := bytes.SplitAfter(data, []byte("\n"))
	start, startLine := 0, 1
	offset := 0
	for i, l := range lines {
		if i > 0 && isDocumentMarker(l) {
			out = append(out, chunk{line: startLine, text: data[start:offset]})
			start, startLine = offset, i+1
		}
		offset += len(l)
	}
	return append(out, chunk{line: startLine, text: data[start:]})
}

func isDocumentMarker(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := line[3:]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r'
}

// parseError is a syntax error with its line in the file.
type parseError struct {
	file string
	line int
	msg  string
}

func (e *parseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg) }

func (e *parseError) finding() Finding {
	return fileFinding(findings.Unparseable, Location{File: e.file, Line: e.line}, e.msg,
		"Fix the syntax at this line; nothing else in this document was reviewed.")
}

var yamlErrLine = regexp.MustCompile(`^(?:error converting YAML to JSON: )?yaml: line (\d+): (.*)$`)

func parseDocument(file string, firstLine int, text []byte, whole bool) (yamlDoc, error) {
	doc := yamlDoc{line: firstLine}
	if err := invalidUTF8(file, firstLine, text); err != nil {
		return doc, err
	}
	var node yamlv3.Node
	if err := yamlv3.Unmarshal(text, &node); err != nil {
		doc.template = failsForTemplate(text)
		return doc, yamlError(file, firstLine, lastLine(firstLine, text), err)
	}
	if node.Kind == 0 {
		return doc, nil // only comments or whitespace
	}
	if passedOver(&node) && !whole {
		// Most of a GitOps repository is other kinds: their syntax is checked, but they are
		// not converted nor kept (a 50 MB repository would need gigabytes).
		return doc, nil
	}
	j, err := yaml.YAMLToJSON(text)
	if err != nil {
		doc.template = failsForTemplate(text)
		return doc, yamlError(file, firstLine, lastLine(firstLine, text), err)
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return doc, &parseError{file: file, line: firstLine, msg: err.Error()}
	}
	doc.value = normalizeNumbers(v)
	doc.fields = positions{}
	root := &node
	if root.Kind == yamlv3.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	doc.fields[posKey(nil)] = pos{file: file, line: root.Line + firstLine - 1, column: root.Column}
	collectPositions(root, nil, file, firstLine-1, doc.fields)
	return doc, nil
}

// invalidUTF8 reports the first byte that is not UTF-8 at its own line and column; the YAML
// parser would blame the document's first line.
func invalidUTF8(file string, firstLine int, text []byte) error {
	if utf8.Valid(text) {
		return nil
	}
	line, col := firstLine, 1
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && n <= 1 {
			return &parseError{file: file, line: line, msg: fmt.Sprintf("malformed YAML: byte 0x%02x at column %d is not UTF-8", text[i], col)}
		}
		if text[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += n
	}
	return nil
}

var (
	templateLine   = regexp.MustCompile(`(?m)^[ \t]*(?:\{\{.*?\}\}[ \t]*)+$`)
	templateAction = regexp.MustCompile(`(?s)\{\{.*?\}\}`)
)

// failsForTemplate reports whether a document that does not parse would parse without its
// template actions: lines that are only actions ({{- if .x }}, {{ toYaml . | nindent 2 }})
// dropped and other actions replaced by a plain scalar. Only then is it a template (KRP006);
// braces in a comment, or bytes that are no YAML at all, stay a syntax error (KRP005).
func failsForTemplate(text []byte) bool {
	if !bytes.Contains(text, []byte("{{")) {
		return false
	}
	t := templateLine.ReplaceAllFunc(text, func(m []byte) []byte { return bytes.Repeat([]byte("\n"), bytes.Count(m, []byte("\n"))) })
	t = templateAction.ReplaceAllFunc(t, func(m []byte) []byte {
		return append([]byte("x"), bytes.Repeat([]byte("\n"), bytes.Count(m, []byte("\n")))...)
	})
	if bytes.Equal(t, text) {
		return false
	}
	var node yamlv3.Node
	if yamlv3.Unmarshal(t, &node) != nil {
		return false
	}
	_, err := yaml.YAMLToJSON(t)
	return err == nil
}

// passedOver reports whether a parsed document is one the review ignores, by its top-level
// apiVersion and kind written as plain strings (or absent): not of a Karpenter group, not a
// v1 List and not a kustomization. Anything less plain (merge keys, aliases, tags, a key
// twice) takes the full path.
func passedOver(n *yamlv3.Node) bool {
	var apiVersion, kind string
	if n.Kind == yamlv3.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yamlv3.MappingNode {
		return false
	}
	seen := 0
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yamlv3.ScalarNode || k.Tag == "!!merge" || k.Value == "<<" {
			return false
		}
		if k.Value != "apiVersion" && k.Value != "kind" {
			continue
		}
		if v.Kind != yamlv3.ScalarNode || v.Tag != "!!str" || k.Tag != "!!str" {
			return false
		}
		seen++
		if k.Value == "kind" && kind != "" || k.Value == "apiVersion" && apiVersion != "" {
			return false // twice
		}
		if k.Value == "kind" {
			kind = v.Value
		} else {
			apiVersion = v.Value
		}
	}
	if seen > 2 || apiVersion == "v1" && kind == "List" || strings.HasPrefix(apiVersion, "kustomize.config.k8s.io/") {
		return false
	}
	if gv, err := schema.ParseGroupVersion(apiVersion); err == nil && strings.HasSuffix(kind, "NodeClass") && otherClouds[gv.Group] != "" {
		return false // another cloud's node class: the review says it skipped it (KRP011)
	}
	v := classify(apiVersion, kind)
	return !v.review && v.problem == ""
}

// parserProblems are the problems yaml.v3's parser (parserc.go) reports; the scanner's are
// worded differently.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'": true, "did not find expected ',' or '}'": true,
	"did not find expected '-' indicator": true, "did not find expected <document start>": true,
	"did not find expected <stream-start>": true, "did not find expected key": true,
	"did not find expected node content": true, "found duplicate %TAG directive": true,
	"found duplicate %YAML directive": true, "found incompatible YAML document": true,
	"found undefined tag handle": true,
}

// lastLine is the file line of the document's last line.
func lastLine(firstLine int, text []byte) int {
	return firstLine + bytes.Count(bytes.TrimRight(text, "\n"), []byte("\n"))
}

// yamlError places a parse error at its file line; the end of the stream, where a parser
// error past the last line points, is the document's last line.
func yamlError(file string, firstLine, last int, err error) error {
	msg := strings.TrimSpace(err.Error())
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		if parserProblems[m[2]] {
			// yaml.v3 numbers a parser error's line from 0 (the construct it was in) and only a
			// scanner error's from 1 (decode.go, parser.fail).
			n++
		}
		return &parseError{file: file, line: min(firstLine+n-1, last), msg: "malformed YAML: " + m[2]}
	}
	return &parseError{file: file, line: firstLine, msg: "malformed YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

// collectPositions records where each field was written: for a mapping entry the line of
// its key, for a list element the line of the element.
func collectPositions(n *yamlv3.Node, at []string, file string, offset int, out positions) {
	switch n.Kind {
	case yamlv3.AliasNode:
		if n.Alias != nil {
			collectPositions(n.Alias, at, file, offset, out)
		}
	case yamlv3.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := append(append([]string(nil), at...), k.Value)
			out[posKey(p)] = pos{file: file, line: k.Line + offset, column: k.Column, yaml11Bool: yaml11Bool(v)}
			collectPositions(v, p, file, offset, out)
		}
	case yamlv3.SequenceNode:
		for i, e := range n.Content {
			p := append(append([]string(nil), at...), strconv.Itoa(i))
			out[posKey(p)] = pos{file: file, line: e.Line + offset, column: e.Column, yaml11Bool: yaml11Bool(e)}
			collectPositions(e, p, file, offset, out)
		}
	}
}

// normalizeNumbers turns json.Number into int64 (integers) or float64, as the API server's
// JSON decoding of unstructured objects does.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
	}
	return v
}

// yaml11Bools are the plain scalars that YAML 1.1 (sigs.k8s.io/yaml, which kubectl, Flux and
// Argo CD use) reads as booleans but YAML 1.2 as strings.
var yaml11Bools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
}

// yaml11Bool returns the text of an unquoted scalar that kubectl reads as a boolean although
// it was probably meant as a string (values: [N]); "" for anything else.
func yaml11Bool(n *yamlv3.Node) string {
	if n.Kind == yamlv3.ScalarNode && n.Style == 0 && yaml11Bools[n.Value] {
		return n.Value
	}
	return ""
}
