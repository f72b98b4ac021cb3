package manifest

import "strings"

// Pos is where a field (or a document) was written.
type Pos struct {
	File         string
	Line, Column int
	// YAML11Bool is the plain scalar as written when kubectl's YAML 1.1 reads it as a boolean
	// although YAML 1.2 reads a string (values: [N]); "" otherwise.
	YAML11Bool string
}

// Positions maps a field path (see Key) to where it was written: for a mapping entry the line
// of its key, for a list element the line of the element. The root ("") is the document's
// value.
type Positions map[string]Pos

// Key joins the segments of a field path (list indexes in decimal) with a separator no field
// name contains.
func Key(segs []string) string { return strings.Join(segs, "\x00") }

// Lookup returns the position of a path, or of its nearest written ancestor (a defaulted
// field is reported where its parent was written).
func (p Positions) Lookup(segs []string) (Pos, bool) {
	for i := len(segs); i >= 0; i-- {
		if at, ok := p[Key(segs[:i])]; ok {
			return at, true
		}
	}
	return Pos{}, false
}

// Sub returns the positions below a path, re-rooted there (the items of a kind: List).
func (p Positions) Sub(at []string) Positions {
	prefix := Key(at)
	out := Positions{}
	for k, v := range p {
		switch {
		case k == prefix:
			out[""] = v
		case strings.HasPrefix(k, prefix+"\x00"):
			out[k[len(prefix)+1:]] = v
		}
	}
	return out
}

// under says whether key is the path prefix or below it.
func under(key, prefix string) bool { return key == prefix || strings.HasPrefix(key, prefix+"\x00") }

// Move re-roots the positions at and below from to to (a field an edit moved, such as a
// converted API version's).
func (p Positions) Move(from, to []string) {
	fk, tk := Key(from), Key(to)
	for k, v := range p {
		if under(k, fk) {
			delete(p, k)
			p[tk+k[len(fk):]] = v
		}
	}
}

// Drop forgets the positions at and below a path.
func (p Positions) Drop(at []string) {
	key := Key(at)
	for k := range p {
		if under(k, key) {
			delete(p, k)
		}
	}
}

// CopyFrom takes the positions at and below a path from src.
func (p Positions) CopyFrom(src Positions, at []string) {
	key := Key(at)
	for k, v := range src {
		if under(k, key) {
			p[k] = v
		}
	}
}

// Clone copies the positions; the copy is never nil, so that it can be written to.
func (p Positions) Clone() Positions {
	out := make(Positions, len(p))
	for k, v := range p {
		out[k] = v
	}
	return out
}
