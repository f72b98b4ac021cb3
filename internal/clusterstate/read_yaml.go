package clusterstate

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// readYAML cuts a YAML stream into objects without parsing it whole: a List's items are cut
// at their "- " markers, so each is parsed alone and memory holds one item at a time.
// kubectl prints a List with its items at the list key's own indentation
// (sigs.k8s.io/yaml); other writers indent them, which the cutter follows too.
func (s *Snapshot) readYAML(file string, br *bufio.Reader) error {
	c := cutter{s: s, file: file, docLine: 1}
	lr := lineReader{br: br}
	for {
		line, err := lr.next()
		if errors.Is(err, errLineTooLong) {
			c.tooLong(lr.n)
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if line != nil {
			c.line(lr.n, line)
		}
		if err != nil {
			c.endDocument(lr.n + 1)
			return nil
		}
	}
}

// cutter holds the document and the List item being read.
type cutter struct {
	s    *Snapshot
	file string

	doc     bytes.Buffer // the document's lines outside its items
	docLine int
	// inItems is set inside a top-level items: sequence whose markers stand at indent
	// (-1 until the first marker).
	inItems  bool
	indent   int
	item     bytes.Buffer
	itemLine int
	// skipping drops the rest of an object too large to keep.
	skipping bool
}

func (c *cutter) line(n int, line []byte) {
	if isSeparator(line) {
		c.endDocument(n + 1)
		return
	}
	if c.inItems && c.inSequence(n, line) {
		return
	}
	if bytes.Equal(bytes.TrimRight(line, " \t\r"), []byte("items:")) {
		c.inItems, c.indent = true, -1
		return
	}
	c.write(&c.doc, n, line)
}

// inSequence takes a line inside an items sequence; false when the line ends the sequence.
func (c *cutter) inSequence(n int, line []byte) bool {
	trimmed := bytes.TrimLeft(line, " ")
	ind := len(line) - len(trimmed)
	blank := len(bytes.TrimSpace(trimmed)) == 0
	marker := bytes.HasPrefix(trimmed, []byte("- ")) || bytes.Equal(bytes.TrimRight(trimmed, " \r"), []byte("-"))
	switch {
	case blank:
		if c.item.Len() > 0 {
			c.item.WriteByte('\n') // a blank line of a block scalar
		}
		return true
	case c.indent < 0 && marker:
		c.indent = ind
		fallthrough
	case ind == c.indent && marker:
		c.endItem()
		c.itemLine = n
		c.write(&c.item, n, dedent(line, c.indent+2))
		return true
	case c.indent >= 0 && (ind > c.indent || trimmed[0] == '\t'):
		// A tab is no indentation in YAML: the item's own parse reports it at its line.
		c.write(&c.item, n, dedent(line, c.indent+2))
		return true
	case trimmed[0] == '#':
		return true
	}
	c.endItem()
	c.inItems = false
	return false
}

// dedent removes up to n leading characters of white space or of a "- " marker.
func dedent(line []byte, n int) []byte {
	i := 0
	for i < n && i < len(line) && (line[i] == ' ' || line[i] == '-') {
		i++
	}
	return line[i:]
}

func (c *cutter) write(b *bytes.Buffer, n int, line []byte) {
	if c.skipping {
		return
	}
	if b.Len()+len(line)+1 > MaxObjectBytes {
		c.tooLong(n)
		return
	}
	b.Write(line)
	b.WriteByte('\n')
}

// tooLong drops the object being read, which is larger than MaxObjectBytes.
func (c *cutter) tooLong(n int) {
	if c.skipping {
		return
	}
	c.skipping = true
	at := c.docLine
	if c.inItems {
		at = c.itemLine
	}
	c.s.problem(Source{File: c.file, Line: at}, fmt.Sprintf("an object of more than %d MiB (at line %d): no object the API server stores is this large, so it was not read", MaxObjectBytes>>20, n))
	c.item.Reset()
}

func (c *cutter) endItem() {
	if c.item.Len() > 0 && !c.skipping {
		c.s.object(c.file, c.itemLine, c.item.Bytes())
	}
	c.item.Reset()
	c.skipping = false
}

// endDocument adds what the document holds besides its items: nothing for a List, the
// object itself for a plain document. next is the line the next document starts at.
func (c *cutter) endDocument(next int) {
	if c.inItems {
		c.endItem()
	}
	if len(bytes.TrimSpace(stripComments(c.doc.Bytes()))) > 0 && !c.skipping {
		c.s.object(c.file, c.docLine, c.doc.Bytes())
	}
	c.doc.Reset()
	c.docLine = next
	c.inItems = false
	c.skipping = false
}

// stripComments leaves out the lines that are only comments, to tell an empty document.
func stripComments(b []byte) []byte {
	var out []byte
	for line := range bytes.Lines(b) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			out = append(out, line...)
		}
	}
	return out
}

// isSeparator is a document marker where kubectl's reader cuts a stream: "---" or "...",
// alone or followed by white space or a comment.
func isSeparator(line []byte) bool {
	for _, m := range [][]byte{[]byte("---"), []byte("...")} {
		if bytes.HasPrefix(line, m) {
			rest := bytes.TrimSpace(line[len(m):])
			return len(rest) == 0 || rest[0] == '#'
		}
	}
	return false
}

var errLineTooLong = errors.New("line too long")

// lineReader returns a stream's lines, numbered from 1, without their line ends.
type lineReader struct {
	br  *bufio.Reader
	n   int
	buf []byte
}

func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	for {
		chunk, err := l.br.ReadSlice('\n')
		if len(l.buf)+len(chunk) <= MaxObjectBytes {
			l.buf = append(l.buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if len(l.buf) == 0 && err != nil {
			return nil, err
		}
		l.n++
		line := bytes.TrimSuffix(bytes.TrimSuffix(l.buf, []byte("\n")), []byte("\r"))
		if len(l.buf) >= MaxObjectBytes {
			return nil, errLineTooLong
		}
		return line, err
	}
}
