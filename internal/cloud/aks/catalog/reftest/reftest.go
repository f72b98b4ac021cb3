// Package reftest locates the project's shared reference data (../shared from
// the repository root) for tests. Tests skip when it is absent, except under
// CI=true, where missing reference data must fail the build rather than
// silently turn the parity tests into no-ops.
package reftest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the path of a file or directory under ../shared/reference, or
// skips (fails under CI) the test when it does not exist.
func Dir(t testing.TB, parts ...string) string {
	t.Helper()
	p, err := Path(parts...)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("shared reference data missing under CI: %v", err)
			return ""
		}
		t.Skipf("shared reference data not available (%v); run from a checkout with ../shared next to the repository", err)
	}
	return p
}

// Path resolves the path without involving a test. Go runs tests in the
// package directory, so the repository root is the nearest parent with go.mod.
func Path(parts ...string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
	p := filepath.Join(append([]string{dir, "..", "shared", "reference"}, parts...)...)
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return filepath.Clean(p), nil
}
