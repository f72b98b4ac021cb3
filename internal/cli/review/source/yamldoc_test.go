package source

import (
	"strings"
	"testing"
)

// Documents are cut at their markers and each is parsed alone: lines stay those of the file,
// a syntax error is reported at its line and the documents after it are still read.
func TestParseYAMLStream(t *testing.T) {
	stream := strings.Join([]string{
		"# leading comment",    // 1
		"a: 1",                 // 2
		"---",                  // 3
		"b:",                   // 4
		"  - x: [1, 2",         // 5: unterminated flow sequence
		"--- # marker comment", // 6
		"c:",                   // 7
		"  d: true",            // 8
		"---",                  // 9
		"# only a comment",     // 10
		"---",                  // 11
		"e: {{ .Values.e }}",   // 12: a template
	}, "\n")
	docs, probs := ParseYAMLStream("f.yaml", []byte(stream))
	if len(docs) != 2 {
		t.Fatalf("docs = %d, want 2 (a, c)", len(docs))
	}
	// A document starts on the line after its separator, which kubectl's reader consumes.
	if docs[0].Line != 1 || docs[1].Line != 7 {
		t.Errorf("document lines %d, %d", docs[0].Line, docs[1].Line)
	}
	if v := docs[0].Value.(map[string]any)["a"]; v != int64(1) {
		t.Errorf("integers are int64, as the API server decodes them: %#v", v)
	}
	if p := docs[1].Fields[PosKey([]string{"c", "d"})]; p.Line != 8 || p.Column != 3 {
		t.Errorf("c.d at %+v, want line 8 column 3", p)
	}
	if len(probs) != 2 {
		t.Fatalf("problems %+v", probs)
	}
	// The parser names the line of the construct it was in (b: or its list), never a line
	// outside the broken document.
	if probs[0].Code != "KRP005" || probs[0].Line < 4 || probs[0].Line > 5 || !strings.Contains(probs[0].Message, "malformed YAML") {
		t.Errorf("syntax error %+v, want KRP005 at line 4 or 5", probs[0])
	}
	if probs[1].Code != "KRP006" || probs[1].Line != 12 {
		t.Errorf("template %+v, want KRP006 at the document starting on line 12", probs[1])
	}
}

// kubectl reads YAML 1.1 (sigs.k8s.io/yaml): the review reads values the same way, so a
// bare yes is the boolean the API server will see, not the string.
func TestYAMLValuesAsKubectlReadsThem(t *testing.T) {
	docs, _ := ParseYAMLStream("f.yaml", []byte("v: yes\nratio: 1.5\nbig: 12345678901234567890\n"))
	m := docs[0].Value.(map[string]any)
	if m["v"] != true || m["ratio"] != 1.5 {
		t.Errorf("values %#v", m)
	}
	if _, ok := m["big"].(float64); !ok {
		t.Errorf("an integer beyond int64 stays a number: %#v", m["big"])
	}
}

// Documents of other kinds are checked for syntax but not converted nor kept: a GitOps
// repository is mostly Deployments, and keeping them cost gigabytes for 50 MB.
func TestOtherKindsAreNotKept(t *testing.T) {
	deploy := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n  replicas: 3\n  template: {spec: {containers: [{name: a, image: x}]}}\n"
	docs, probs := parseStream("f.yaml", []byte(deploy), false)
	if len(probs) != 0 || len(docs) != 0 {
		t.Fatalf("a Deployment is kept: docs %d, problems %+v", len(docs), probs)
	}
	// Broken, it is still a syntax error.
	if _, probs := parseStream("f.yaml", []byte(deploy+"  bad: [\n"), false); len(probs) != 1 || probs[0].Code != "KRP005" {
		t.Errorf("problems %+v", probs)
	}
	// Nor are documents without kind, unless read whole (kustomizations, patches).
	if docs, _ := parseStream("f.yaml", []byte("a: 1\n"), false); len(docs) != 0 {
		t.Errorf("a document without kind is kept whole")
	}
	if docs, _ := ParseYAMLStream("f.yaml", []byte("a: 1\n")); len(docs) != 1 || docs[0].Fields == nil {
		t.Errorf("read whole, a document without kind lost its positions")
	}
	// What is not plainly another kind takes the full path: a merge key could hold the kind,
	// and Karpenter kinds, Lists and kustomizations are read whole.
	for _, doc := range []string{
		"base: &b {apiVersion: karpenter.sh/v1}\n<<: *b\nkind: NodePool\napiVersion: apps/v1\n",
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\n",
		"apiVersion: v1\nkind: List\nitems: []\n",
		"apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\n",
		"apiVersion: apps/v1\nkind: 5\nmetadata: {name: a}\n",
	} {
		docs, _ := parseStream("f.yaml", []byte(doc), false)
		if len(docs) != 1 || docs[0].Fields == nil {
			t.Errorf("%q was not read whole", doc)
		}
	}
}

// yaml.v3 counts a parser error's line from 0 and a scanner error's from 1: both are reported
// at the file's line of the construct (an unclosed flow mapping on line 3 is line 3).
func TestParserErrorLine(t *testing.T) {
	for _, tc := range []struct {
		text string
		line int
	}{
		{"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: broken\nspec: {}\n", 3},
		{"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: a\n  labels: [x\nspec: {}\n", 5},
		{"---\napiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: broken\n", 4},
	} {
		_, probs := ParseYAMLStream("f.yaml", []byte(tc.text))
		if len(probs) != 1 || probs[0].Location.Line != tc.line {
			t.Errorf("%q: %+v, want one finding at line %d", tc.text, probs, tc.line)
		}
	}
}

// An error at the end of the stream is on the document's last line, not past it.
func TestParserErrorAtEndOfStream(t *testing.T) {
	_, probs := ParseYAMLStream("f.yaml", []byte("kind: ["))
	if len(probs) != 1 || probs[0].Location.Line != 1 {
		t.Errorf("%+v, want one finding at line 1", probs)
	}
}
