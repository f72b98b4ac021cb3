package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A review with nothing to review (an empty directory, Terraform .tf files, only other kinds)
// fails with exit 2 and the hint of what the review reads, unless --allow-empty: a CI job
// given the wrong path must not pass green.
func TestEmptyReviewFails(t *testing.T) {
	empty := t.TempDir()
	tf := t.TempDir()
	if err := os.WriteFile(filepath.Join(tf, "main.tf"), []byte("resource \"karpenter_nodepool\" \"a\" {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	deployment := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
	for _, tc := range []struct {
		name, stdin string
		args        []string
	}{
		{"empty directory", "", []string{empty}},
		{"only .tf files", "", []string{tf}},
		{"no Karpenter object", deployment, []string{"-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.stdin, tc.args...)
			if r.code != ExitUsage || !strings.Contains(r.stdout, "nothing reviewed") || !strings.Contains(r.stderr, "--allow-empty") {
				t.Errorf("exit %d, want 2 with the hint\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			}
			if r := run(t, tc.stdin, append(tc.args, "--allow-empty")...); r.code != ExitClean {
				t.Errorf("--allow-empty: exit %d\nstderr: %s", r.code, r.stderr)
			}
		})
	}
	// A malformed document is something reviewed: its finding decides.
	if r := run(t, "a: [1\n", "-"); r.code != ExitFindings {
		t.Errorf("malformed input: exit %d, want 1\n%s", r.code, r.stderr)
	}
}
