package clusterstate

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
)

// readJSON reads a JSON stream: each top-level value a List, an object or an array of
// objects. A List's items are decoded one at a time.
func (s *Snapshot) readJSON(file string, br *bufio.Reader) error {
	lines := &lineCounter{r: br}
	dec := json.NewDecoder(lines)
	for {
		err := s.jsonValue(file, dec, lines)
		if errors.Is(err, io.EOF) {
			return nil
		}
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) || errors.Is(err, io.ErrUnexpectedEOF) {
			s.problem(Source{File: file, Line: lines.lineAt(errorOffset(dec))}, "not JSON kubectl prints: "+err.Error()+"; the rest of the file was not read")
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// errorOffset is where in the stream the value a decoder failed on is broken. A decoder's
// SyntaxError counts bytes from no fixed place, so the value is scanned again from where the
// decoder stopped.
func errorOffset(dec *json.Decoder) int64 {
	at := dec.InputOffset()
	var v json.RawMessage
	var syntax *json.SyntaxError
	if err := json.NewDecoder(dec.Buffered()).Decode(&v); errors.As(err, &syntax) && syntax.Offset > 0 {
		at += syntax.Offset - 1
	}
	return at
}

// jsonValue reads one top-level value.
func (s *Snapshot) jsonValue(file string, dec *json.Decoder, lines *lineCounter) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('['):
		return s.jsonItems(file, dec, lines)
	case json.Delim('{'):
	default:
		return &json.SyntaxError{Offset: dec.InputOffset()}
	}
	start := lines.lineAt(dec.InputOffset())
	fields := map[string]json.RawMessage{}
	items := false
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := k.(string)
		if key == "items" {
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				return fmt.Errorf("items is not a list: %w", &json.SyntaxError{Offset: dec.InputOffset()})
			}
			if err := s.jsonItems(file, dec, lines); err != nil {
				return err
			}
			items = true
			continue
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		fields[key] = v
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return err
	}
	if items {
		return nil
	}
	object, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	s.addJSON(Source{File: file, Line: start}, object)
	return nil
}

// jsonItems reads the elements of an array up to its closing bracket, each an object.
func (s *Snapshot) jsonItems(file string, dec *json.Decoder, lines *lineCounter) error {
	for dec.More() {
		var item json.RawMessage
		if err := dec.Decode(&item); err != nil {
			return err
		}
		// The decoder has read up to the item's end: its first line is that line less the
		// item's own line breaks.
		end := lines.lineAt(dec.InputOffset())
		src := Source{File: file, Line: end - countLines(item)}
		if s.full(src) {
			continue
		}
		s.addJSON(src, item)
	}
	_, err := dec.Token() // the closing bracket
	return err
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

// lineCounter numbers the lines of what a JSON decoder reads. It keeps the offsets of the
// line breaks the decoder may not have reached yet, so its memory is the decoder's buffer.
type lineCounter struct {
	r      io.Reader
	read   int64
	breaks []int64 // offsets of line breaks at or after the last offset asked for
	before int     // line breaks before it
}

func (c *lineCounter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\n' {
			c.breaks = append(c.breaks, c.read+int64(i))
		}
	}
	c.read += int64(n)
	return n, err
}

// lineAt is the line (from 1) of offset; offsets must come in increasing order.
func (c *lineCounter) lineAt(offset int64) int {
	i := sort.Search(len(c.breaks), func(i int) bool { return c.breaks[i] >= offset })
	c.before += i
	c.breaks = c.breaks[i:]
	return c.before + 1
}
