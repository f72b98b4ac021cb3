package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
)

// A group with mistakes stops the review with every mistake at its file:line, saying what
// would be valid: a group that named a cluster wrongly would compare nothing and look clean.
func TestFleetGroupConfigErrors(t *testing.T) {
	text := `clusters:
  - {name: a, paths: [a]}
  - {name: b, paths: [b]}
  - {name: c, paths: [c]}
groups:
  - name: prod
    clusters:
      - a
      - prod-x
      - a
  - name: prod
    clusters: [b]
  - clusters: [c, b]
`
	p := filepath.Join(t.TempDir(), ".karpenter-review.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := config.LoadConfig(p)
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		p + `:9: groups[0] (prod): clusters[1]: "prod-x" is not a cluster of this file (defined: a, b, c)`,
		p + `:10: groups[0] (prod): clusters[2]: "a" is listed twice`,
		p + `:11: groups[1]: group "prod" is defined twice`,
		p + `:11: groups[1] (prod): clusters must name at least two clusters meant to be identical, got 1`,
		p + `:13: groups[2]: name is required`,
		p + `:13: groups[2]: clusters[1]: "b" is already in group "prod"; a cluster belongs to one group`,
	}
	got := strings.Split(err.Error(), "\n")
	if len(got) != len(want) {
		t.Errorf("%d errors, want %d:\n%s", len(got), len(want), err)
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || strings.HasPrefix(g, w)
		}
		if !found {
			t.Errorf("no error %q in:\n%s", w, err)
		}
	}
	// The command stops with the usage exit code and prints them.
	r := run(t, "", "--config", p, t.TempDir())
	if r.code != ExitUsage || !strings.Contains(r.stderr, `"prod-x" is not a cluster of this file`) {
		t.Errorf("exit %d, stderr %s", r.code, r.stderr)
	}
	// An unknown key in a group is said with its line and the key meant.
	if err := os.WriteFile(p, []byte("groups:\n  - name: g\n    cluster: [a, b]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := config.LoadConfig(p); err == nil || !strings.Contains(err.Error(), `unknown key "cluster" at line 3; did you mean "clusters"?`) {
		t.Errorf("unknown key: %v", err)
	}
}
