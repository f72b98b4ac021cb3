package manifest

import (
	"bytes"
	"os"
	"testing"
)

// Any bytes give documents and problems within the input's lines, never a panic.
func FuzzRead(f *testing.F) {
	if data, err := os.ReadFile("testdata/separators.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("a: 1\n--- {b: 2}\n...\nc: 3\n"))
	f.Add([]byte("\xef\xbb\xbf---\r\na: {{ .x }}\r\n...\r\n"))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{kind: NodePool}, 3, null]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		docs, probs := Read("f.yaml", data, Options{})
		for _, p := range probs {
			if p.Line < 1 || p.Line > lines {
				t.Fatalf("problem at line %d of %d: %+v", p.Line, lines, p)
			}
		}
		for _, d := range docs {
			if d.Line < 1 || d.Line > lines {
				t.Fatalf("document at line %d of %d", d.Line, lines)
			}
		}
		for _, o := range Objects(docs) {
			_ = o.Name()
			_ = o.LineOf([]string{"spec", "x"})
		}
	})
}
