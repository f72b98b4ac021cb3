package manifest

import (
	"strings"
	"testing"
)

// A tab in indentation is reported at the tab's own line: yaml.v3 names the line of the plain
// scalar it was scanning, one line before the tab or more (blank lines between, a second
// document in the stream).
func TestTabInIndentationAtItsLine(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
	}{
		{"after the first line", "a: 1\n\tb: 2\n", 2},
		{"under a nested key", "a: 1\nb: 2\nc:\n  d: 1\n\te: 2\n", 5},
		{"in a sequence", "a: 1\nb:\n  - x\n\t- y\n", 4},
		{"after blank lines", "a: 1\nb: 2\n\n\n\tc: 3\n", 5},
		{"spaces then a tab", "a:\n  b: 1\n  \tc: 2\n", 3},
		{"in a second document", "x: 1\n---\na: 1\nb: 2\n\tc: 3\n", 5},
		{"a value's own line", "a: 1\nb:\n\tc: 2\n", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := Read("f.yaml", []byte(tc.text), Options{})
			if len(probs) != 1 || probs[0].Line != tc.line || !strings.Contains(probs[0].Message, "malformed YAML") {
				t.Fatalf("problems %+v, want one at line %d", probs, tc.line)
			}
		})
	}
}
