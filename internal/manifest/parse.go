package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// Document is one document of a stream.
type Document struct {
	File string
	// Line is the document's first line in its file.
	Line int
	// Value is the document as kubectl, Flux and Argo CD read it (sigs.k8s.io/yaml: YAML to
	// JSON, integers as int64, other numbers float64); never nil.
	Value any
	// Fields are the positions of its fields, from a second parse that keeps them.
	Fields Positions
}

// Options tune Read.
type Options struct {
	// PassOver, when set, names the documents a reader has no use for, by their top-level
	// apiVersion and kind (each "" when absent). It is asked only when both are written as
	// plain strings at most once. Such documents are checked for syntax but neither decoded
	// nor returned. A GitOps repository is mostly other kinds, and decoded documents cost a
	// hundred times their bytes.
	PassOver func(apiVersion, kind string) bool
}

// Read splits a stream (Split) and parses each document on its own, so that a malformed
// document is reported at its line and does not hide the documents after it. Documents with
// only comments or whitespace are left out.
func Read(file string, data []byte, opts Options) ([]Document, []Problem) {
	var docs []Document
	var probs []Problem
	dropped := 0
	split, splitDropped := eachChunk(file, data, func(c Chunk) {
		doc, p, ok := parseDocument(file, c.Line, c.Text, opts)
		for _, q := range p {
			if len(probs) < MaxProblems {
				probs = append(probs, q)
			} else {
				dropped++ // in line order: the first MaxProblems are kept
			}
		}
		if ok {
			docs = append(docs, doc)
		}
	})
	probs = append(probs, split...)
	sortProblems(probs)
	return docs, capProblems(file, probs, dropped+splitDropped)
}

func sortProblems(p []Problem) {
	sort.SliceStable(p, func(i, j int) bool { return p[i].Line < p[j].Line })
}

// MaxProblems bounds the problems reported per stream: a hostile file of a million broken
// separators gives the first ones and a count, not a million findings.
const MaxProblems = 100

func capProblems(file string, p []Problem, dropped int) []Problem {
	if len(p) <= MaxProblems && dropped == 0 {
		return p
	}
	more := len(p) - min(len(p), MaxProblems) + dropped
	if len(p) > MaxProblems {
		p = p[:MaxProblems]
	}
	last := p[len(p)-1]
	return append(p, problem(last.Code, file, last.Line,
		fmt.Sprintf("and %d more problems after this line, not listed", more), "Fix the problems listed and review the file again."))
}

var yamlErrLine = regexp.MustCompile(`^(?:error converting YAML to JSON: )?yaml: line (\d+): (.*)$`)

func parseDocument(file string, firstLine int, text []byte, opts Options) (Document, []Problem, bool) {
	doc := Document{File: file, Line: firstLine}
	if p := invalidUTF8(file, firstLine, text); p != nil {
		return doc, []Problem{*p}, false
	}
	var node yamlv3.Node
	if err := yamlv3.Unmarshal(text, &node); err != nil {
		return doc, []Problem{syntaxOrTemplate(file, firstLine, text, err)}, false
	}
	if node.Kind == 0 {
		return doc, nil, false // only comments or whitespace
	}
	probs := secondDocument(file, firstLine, text)
	if opts.PassOver != nil {
		if apiVersion, kind, plain := plainTypeMeta(&node); plain && opts.PassOver(apiVersion, kind) {
			return doc, probs, false
		}
	}
	j, err := yaml.YAMLToJSON(text)
	if err != nil {
		return doc, append(probs, syntaxOrTemplate(file, firstLine, text, err)), false
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return doc, append(probs, problem(Unparseable, file, firstLine, err.Error(), fixSyntax)), false
	}
	if v == nil {
		return doc, probs, false // a document that is only null (~)
	}
	doc.Value = normalizeNumbers(v)
	doc.Fields = Positions{}
	root := &node
	if root.Kind == yamlv3.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	doc.Fields[Key(nil)] = Pos{File: file, Line: root.Line + firstLine - 1, Column: root.Column}
	collectPositions(root, nil, file, firstLine-1, doc.Fields)
	return doc, probs, true
}

// secondDocument reports a document that follows a "..." end marker without a --- line:
// kubectl's reader does not cut there, and its decoder reads the first document only, so
// this one would be dropped without a word.
func secondDocument(file string, firstLine int, text []byte) []Problem {
	if !bytes.HasPrefix(text, []byte("...")) && !bytes.Contains(text, []byte("\n...")) {
		return nil
	}
	dec := yamlv3.NewDecoder(bytes.NewReader(text))
	var first, second yamlv3.Node
	if dec.Decode(&first) != nil {
		return nil
	}
	line := 0
	switch err := dec.Decode(&second); {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		// yaml.v3 wants a --- before it; kubectl's decoder never looks that far.
		line = firstLine + endMarker(text) + 1 // the line after it
	case second.Kind == 0 || len(second.Content) == 0:
		return nil
	default:
		line = second.Content[0].Line + firstLine - 1
	}
	return []Problem{problem(Unparseable, file, line,
		"a document starts after a ... end marker with no --- line before it: kubectl reads only the first document of what lies between two --- lines, so this one would be dropped",
		"Start the document with a --- line (or remove the ... line).")}
}

// endMarker is the 0-based line of the first ... line of a document's text.
func endMarker(text []byte) int {
	for i, l := range bytes.Split(text, []byte("\n")) {
		if bytes.HasPrefix(l, []byte("...")) {
			return i
		}
	}
	return 0
}

// plainTypeMeta returns the top-level apiVersion and kind when both are plain strings (or
// absent) written at most once, with no merge key that could hold them.
func plainTypeMeta(n *yamlv3.Node) (apiVersion, kind string, plain bool) {
	if n.Kind == yamlv3.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yamlv3.MappingNode {
		return "", "", false
	}
	var seenAPIVersion, seenKind bool
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yamlv3.ScalarNode || k.Tag == "!!merge" || k.Value == "<<" {
			return "", "", false
		}
		if k.Value != "apiVersion" && k.Value != "kind" {
			continue
		}
		if v.Kind != yamlv3.ScalarNode || v.Tag != "!!str" || k.Tag != "!!str" {
			return "", "", false
		}
		if k.Value == "kind" {
			if seenKind {
				return "", "", false
			}
			kind, seenKind = v.Value, true
		} else {
			if seenAPIVersion {
				return "", "", false
			}
			apiVersion, seenAPIVersion = v.Value, true
		}
	}
	return apiVersion, kind, true
}

// invalidUTF8 reports the first byte that is not UTF-8 at its own line and column; the YAML
// parser would blame the document's first line.
func invalidUTF8(file string, firstLine int, text []byte) *Problem {
	if utf8.Valid(text) {
		return nil
	}
	line, col := firstLine, 1
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && n <= 1 {
			p := problem(Unparseable, file, line, fmt.Sprintf("malformed YAML: byte 0x%02x at column %d is not UTF-8", text[i], col), fixSyntax)
			return &p
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

// syntaxOrTemplate is the problem of a document that does not parse: a Go template (KRP006)
// when it would parse without its template actions, else a syntax error at its line (KRP005).
func syntaxOrTemplate(file string, firstLine int, text []byte, err error) Problem {
	if failsForTemplate(text) {
		return problem(UnrenderedTemplate, file, firstLine,
			"the document holds template actions ({{ ... }}) and is not a manifest; it was not reviewed",
			"Render it and review the result, e.g. helm template RELEASE CHART | terraform-provider-karpenter review -")
	}
	return yamlError(file, firstLine, text, err)
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
func yamlError(file string, firstLine int, text []byte, err error) Problem {
	msg := strings.TrimSpace(err.Error())
	if m := yamlErrLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		if parserProblems[m[2]] {
			// yaml.v3 numbers a parser error's line from 0 (the construct it was in) and only a
			// scanner error's from 1 (decode.go, parser.fail).
			n++
		}
		if m[2] == tabProblem {
			n = tabLine(text, n)
		}
		return problem(Unparseable, file, min(firstLine+n-1, lastLine(firstLine, text)), "malformed YAML: "+m[2], fixSyntax)
	}
	return problem(Unparseable, file, firstLine, "malformed YAML: "+strings.TrimPrefix(msg, "yaml: "), fixSyntax)
}

// tabProblem is the scanner's error for a tab in indentation. yaml.v3 reports it at the line
// of the plain scalar it was scanning when it met the tab (scannerc.go gives the scalar's start
// as the error's context), which is a line before the tab or more.
const tabProblem = "found a tab character that violates indentation"

// tabLine is the first line, from line n on (1-based, in the document), whose indentation
// holds a tab: where the tab the scanner met is. n itself when no line does.
func tabLine(text []byte, n int) int {
	for i, l := range bytes.Split(text, []byte("\n")) {
		if i+1 < n {
			continue
		}
		indent := l[:len(l)-len(bytes.TrimLeft(l, " \t"))]
		if bytes.IndexByte(indent, '\t') >= 0 {
			return i + 1
		}
	}
	return n
}

// collectPositions records where each field was written: for a mapping entry the line of
// its key, for a list element the line of the element.
func collectPositions(n *yamlv3.Node, at []string, file string, offset int, out Positions) {
	switch n.Kind {
	case yamlv3.AliasNode:
		if n.Alias != nil {
			collectPositions(n.Alias, at, file, offset, out)
		}
	case yamlv3.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := append(append([]string(nil), at...), k.Value)
			out[Key(p)] = Pos{File: file, Line: k.Line + offset, Column: k.Column, YAML11Bool: yaml11Bool(v)}
			collectPositions(v, p, file, offset, out)
		}
	case yamlv3.SequenceNode:
		for i, e := range n.Content {
			p := append(append([]string(nil), at...), strconv.Itoa(i))
			out[Key(p)] = Pos{File: file, Line: e.Line + offset, Column: e.Column, YAML11Bool: yaml11Bool(e)}
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

func itoa(i int) string { return strconv.Itoa(i) }

// DecodeJSON decodes JSON as Read decodes a document: integers as int64, other numbers as
// float64.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return normalizeNumbers(v), nil
}
