package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
)

// A config file with a mistake stops the review (exit 2) and says what the mistake is: a
// review against the wrong region or cluster would be worse than none.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"unknown key", "clusters:\n  - name: a\n    paths: [x]\n    regoin: westeurope\n", "regoin"},
		{"no name", "clusters:\n  - paths: [x]\n", "name is required"},
		{"no paths", "clusters:\n  - name: a\n", "paths is required"},
		{"twice", "clusters:\n  - {name: a, paths: [x]}\n  - {name: a, paths: [y]}\n", "defined twice"},
		{"bad region", "clusters:\n  - {name: a, paths: [x], region: mars}\n", `unknown region "mars"`},
		{"bad code", "suppress: [KRP9]\n", "KRP9"},
		{"bad glob", "exclude: [\"a/[\"]\n", "syntax error in pattern"},
		{"escaping glob", "clusters:\n  - {name: a, paths: [../x]}\n", "leaves the config file's directory"},
		{"not yaml", "clusters: [\n", "yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), ".karpenter-review.yaml")
			if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := config.LoadConfig(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one mentioning %q", err, tc.want)
			}
		})
	}
}

// The config is found upward from the inputs, but not beyond the repository root.
func TestFindConfig(t *testing.T) {
	if got := config.FindConfig("testdata/multi/clusters/prod-weu"); !strings.HasSuffix(got, filepath.Join("testdata", "multi", ".karpenter-review.yaml")) {
		t.Errorf("FindConfig = %q", got)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".karpenter-review.yaml"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(root, "repo", "clusters")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "repo", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := config.FindConfig(repo); got != "" {
		t.Errorf("FindConfig crossed the repository root: %q", got)
	}
}

// Every unknown key of a config file is said at once, each at its line with the key meant, in
// words (no Go type names), one line each; so is a value of the wrong type.
func TestConfigUnknownKeys(t *testing.T) {
	p := filepath.Join(t.TempDir(), ".karpenter-review.yaml")
	text := "region: westeurope\nsupress: [KRP104]\nclusters:\n  - name: a\n    paths: [x]\n  - nme: b\n    paths: [y]\n    zzz: 1\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, cleanPool, "--config", p, "-")
	want := "review: " + p + `: unknown key "supress" at line 2; did you mean "suppress"?` + "\n" +
		"review: " + p + `: unknown key "nme" at line 6; did you mean "name"?` + "\n" +
		"review: " + p + `: unknown key "zzz" at line 8 (known here: externalNodeClasses, featureGates, karpenterVersion, name, paths, region, selfHosted, suppress)` + "\n"
	if r.code != ExitUsage || r.stderr != want {
		t.Errorf("exit %d, stderr\n%s\nwant\n%s", r.code, r.stderr, want)
	}
	if err := os.WriteFile(p, []byte("selfHosted: maybe\nclusters:\n  - {name: a, paths: [x], selfHosted: sometimes}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run(t, cleanPool, "--config", p, "-")
	if r.code != ExitUsage || strings.Count(r.stderr, "\n") != 2 || strings.Contains(r.stderr, `\n`) || !strings.Contains(r.stderr, "line 1:") || !strings.Contains(r.stderr, "line 3:") {
		t.Errorf("exit %d, want two lines, one per value:\n%s", r.code, r.stderr)
	}
}
