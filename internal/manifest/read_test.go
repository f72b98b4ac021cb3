package manifest

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// variants of a stream that kubectl reads the same: as written, with CRLF line ends, with a
// byte order mark, with both.
func variants(t *testing.T, file string) map[string][]byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	return map[string][]byte{
		"lf": data, "crlf": crlf,
		"bom": append(append([]byte(nil), bom...), data...), "bom+crlf": append(append([]byte(nil), bom...), crlf...),
	}
}

// The separators kubectl accepts cut the stream where apimachinery's reader cuts it; the
// comment-only document is left out, and each document and field keeps its file line.
func TestReadSeparators(t *testing.T) {
	for name, data := range variants(t, "testdata/separators.yaml") {
		t.Run(name, func(t *testing.T) {
			docs, probs := Read("separators.yaml", data, Options{})
			if len(probs) != 0 {
				t.Fatalf("problems: %+v", probs)
			}
			objs := Objects(docs)
			if len(objs) != 2 {
				t.Fatalf("%d objects, want the AKSNodeClass and the NodePool", len(objs))
			}
			nc, np := objs[0], objs[1]
			if nc.GVK.Kind != "AKSNodeClass" || nc.Name() != "default" || nc.Line != 5 {
				t.Errorf("node class %v %q at line %d", nc.GVK, nc.Name(), nc.Line)
			}
			if np.GVK.Kind != "NodePool" || np.GVK.Group != "karpenter.sh" || np.Name() != "general" || np.Line != 13 {
				t.Errorf("pool %v %q at line %d", np.GVK, np.Name(), np.Line)
			}
			if l := np.LineOf([]string{"spec", "template", "spec", "requirements", "0", "operator"}); l != 26 {
				t.Errorf("requirements[0].operator at line %d, want 26", l)
			}
			if v := np.Body["spec"].(map[string]any)["limits"].(map[string]any)["cpu"]; v != "100" {
				t.Errorf("limits.cpu = %#v", v)
			}
			if spec := nc.Body["spec"].(map[string]any); spec["imageFamily"] != "AzureLinux" {
				t.Errorf("node class spec %v (the ... end marker must not leak into it)", spec)
			}
		})
	}
}

// What kubectl's reader refuses, or would silently drop, is a problem at its line; the
// documents around it are still read.
func TestReadStreamProblems(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
		want       string
		docs       int
	}{
		{"content after ---", "a: 1\n--- {b: 2}\nc: 3\n", 2, "not a document separator kubectl accepts", 2},
		{"block scalar after ---", "--- |\n  text\n", 1, "not a document separator kubectl accepts", 1},
		{"document after ... without ---", "a: 1\n...\nb: 2\n---\nc: 3\n", 3, "would be dropped", 2},
		{"syntax error", "a: 1\n---\nb: [1\n---\nc: 3\n", 3, "malformed YAML", 2},
		{"template", "a: 1\n---\nb: {{ .Values.b }}\n", 3, "template actions", 1},
		{"not UTF-8", "a: 1\nb: \xff\n", 2, "not UTF-8", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs, probs := Read("f.yaml", []byte(tc.text), Options{})
			if len(probs) != 1 || probs[0].Line != tc.line || !strings.Contains(probs[0].Message, tc.want) {
				t.Fatalf("problems %+v, want one at line %d saying %q", probs, tc.line, tc.want)
			}
			if len(docs) != tc.docs {
				t.Errorf("%d documents read, want %d", len(docs), tc.docs)
			}
		})
	}
}

// A document the caller passes over is checked for syntax only.
func TestReadPassOver(t *testing.T) {
	deploy := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n"
	skip := Options{PassOver: func(apiVersion, kind string) bool { return apiVersion == "apps/v1" }}
	if docs, probs := Read("f.yaml", []byte(deploy), skip); len(docs) != 0 || len(probs) != 0 {
		t.Errorf("passed over: %d documents, problems %+v", len(docs), probs)
	}
	if _, probs := Read("f.yaml", []byte(deploy+"spec: [\n"), skip); len(probs) != 1 {
		t.Errorf("a passed-over document's syntax error was not reported: %+v", probs)
	}
	// A merge key could hold the kind: read whole.
	if docs, _ := Read("f.yaml", []byte("<<: {kind: NodePool}\napiVersion: apps/v1\n"), skip); len(docs) != 1 {
		t.Errorf("a document with a merge key was passed over")
	}
}

// The items of a kind: List are objects of their own, with their own lines.
func TestObjectsOfList(t *testing.T) {
	docs, _ := Read("f.yaml", []byte("apiVersion: v1\nkind: List\nitems:\n- apiVersion: karpenter.sh/v1\n  kind: NodePool\n  metadata: {name: a}\n"), Options{})
	objs := Objects(docs)
	if len(objs) != 1 || objs[0].Name() != "a" || objs[0].Line != 4 || objs[0].LineOf([]string{"metadata", "name"}) != 6 {
		t.Fatalf("objects %+v", objs)
	}
}

// A file of a million broken separators gives the first problems and a count.
func TestReadCapsProblems(t *testing.T) {
	_, probs := Read("f.yaml", bytes.Repeat([]byte("--- x\n"), 5000), Options{})
	if len(probs) != MaxProblems+1 || !strings.Contains(probs[MaxProblems].Message, "4900 more problems") {
		t.Fatalf("%d problems, last %+v", len(probs), probs[len(probs)-1])
	}
}
