package manifest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Chunk is one document of a stream as kubectl's reader cuts it, with the line of the file
// it starts on.
type Chunk struct {
	Line int
	Text []byte
}

// bom is the UTF-8 byte order mark some editors write at the start of a file. YAML allows it
// there and kubectl's parser skips it; it is no part of the first line's text.
var bom = []byte("\xef\xbb\xbf")

// Split cuts a stream into documents with kubectl's reader (apimachinery's YAMLReader): at
// each line that starts with --- followed by nothing but spaces or a comment. A --- line
// followed by anything else (--- {a: 1}, --- |) is refused by that reader, and so by kubectl:
// it is a problem at its line, and the documents around it are still read.
func Split(file string, data []byte) ([]Chunk, []Problem) {
	var out []Chunk
	probs, dropped := eachChunk(file, data, func(c Chunk) { out = append(out, c) })
	return out, capProblems(file, probs, dropped)
}

// eachChunk is Split, handing each document to fn as it is cut (a stream of a million tiny
// documents is not held twice).
// Past MaxProblems, problems are only counted (dropped).
func eachChunk(file string, data []byte, fn func(Chunk)) (probs []Problem, dropped int) {
	data = bytes.TrimPrefix(data, bom)
	starts := lineStarts(data)
	text := func(from, to int) []byte { // lines from..to-1 (1-based)
		end := len(data)
		if to-1 < len(starts) {
			end = starts[to-1]
		}
		return data[starts[from-1]:end]
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	line := 1
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return probs, dropped
		}
		var syn utilyaml.YAMLSyntaxError
		if errors.As(err, &syn) {
			// The reader dropped what it had gathered and the separator line; find that line
			// (the first invalid separator from here) and keep the document before it.
			bad := invalidSeparator(data, starts, line)
			if bad == 0 { // cannot happen: the reader only fails at such a line
				probs = append(probs, problem(Unparseable, file, line, "malformed YAML: "+err.Error(), fixSyntax))
				return probs, dropped
			}
			if bad > line {
				fn(Chunk{Line: line, Text: asReaderReads(text(line, bad))})
			}
			sep := strings.TrimRight(string(text(bad, bad+1)), "\r\n")
			if len(probs) >= MaxProblems {
				line, dropped = bad+1, dropped+1
				continue
			}
			probs = append(probs, problem(Unparseable, file, bad,
				fmt.Sprintf("malformed YAML: %q is not a document separator kubectl accepts: after --- only spaces or a comment may follow", sep),
				"Put the document's content on the line after ---."))
			line = bad + 1
			continue
		}
		if err != nil { // the reader of a byte slice fails in no other way
			probs = append(probs, problem(Unparseable, file, line, "malformed YAML: "+err.Error(), fixSyntax))
			return probs, dropped
		}
		fn(Chunk{Line: line, Text: doc})
		// Every document but the last ends at a separator line, which the reader consumes.
		line += bytes.Count(doc, []byte("\n")) + 1
	}
}

// lineStarts are the byte offsets where each line starts.
func lineStarts(data []byte) []int {
	starts := []int{0}
	for i, b := range data {
		if b == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// invalidSeparator is the first line from line on that kubectl's reader refuses as a
// separator (its own rule: it starts with --- and what follows, trimmed, is not a comment),
// or 0.
func invalidSeparator(data []byte, starts []int, from int) int {
	for l := from; l <= len(starts); l++ {
		end := len(data)
		if l < len(starts) {
			end = starts[l]
		}
		s := string(data[starts[l-1]:end])
		if !strings.HasPrefix(s, "---") {
			continue
		}
		if rest := strings.TrimSpace(s[3:]); rest != "" && rest[0] != '#' {
			return l
		}
	}
	return 0
}

// asReaderReads gives lines as kubectl's reader returns them: each ended by \n alone.
func asReaderReads(t []byte) []byte {
	t = bytes.ReplaceAll(t, []byte("\r\n"), []byte("\n"))
	if len(t) > 0 && t[len(t)-1] != '\n' {
		t = append(t, '\n')
	}
	return t
}
