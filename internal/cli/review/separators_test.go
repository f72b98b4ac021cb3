package review

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The stream of internal/manifest/testdata/separators.yaml (every separator form kubectl
// accepts: leading ---, --- # comment, a comment-only document, a ... end), as written, with
// CRLF and with a byte order mark, is read as its two objects, with their lines. The same file
// feeds nodepool_from_yaml in internal/functions (TestAccFromYAMLReadsWhatReviewReads): a
// file review accepts is accepted there.
func TestReviewReadsSeparators(t *testing.T) {
	data, err := os.ReadFile("../../manifest/testdata/separators.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	for name, v := range map[string][]byte{"lf": data, "crlf": crlf, "bom+crlf": append([]byte("\xef\xbb\xbf"), crlf...)} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			f := filepath.Join(dir, "separators.yaml")
			if err := os.WriteFile(f, v, 0o600); err != nil {
				t.Fatal(err)
			}
			r := run(t, "", "--format", "json", "--region", "eastus", f)
			var out jsonOut
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
				t.Fatalf("exit %d: %v\n%s\n%s", r.code, err, r.stdout, r.stderr)
			}
			for _, fd := range out.Findings {
				if fd.Severity == "error" {
					t.Errorf("error finding %s at line %d: %s", fd.Code, fd.Line, fd.Message)
				}
			}
			if len(out.Clusters) != 1 || out.Clusters[0].NodePools != 1 || out.Clusters[0].NodeClasses != 1 {
				t.Fatalf("clusters %+v, want one with the pool and its node class", out.Clusters)
			}
			if len(out.Pools) != 1 || out.Pools[0].Name != "general" || out.Pools[0].Location.Line != 13 {
				t.Errorf("pools %+v, want general at line 13", out.Pools)
			}
		})
	}
}
