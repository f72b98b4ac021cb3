package reftest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/refdata"
)

// Dir returns the logical path of a file or directory under reference/ (read files with
// refdata.ReadFile, which finds a compressed one) and fails the test when it is missing.
func Dir(t testing.TB, parts ...string) string {
	t.Helper()
	p, err := Path(parts...)
	if err != nil {
		t.Fatalf("reference data missing (the repository's reference/ directory is incomplete): %v", err)
		return ""
	}
	return p
}

// Path resolves the path without involving a test. Go runs tests in the package
// directory, so the repository root is the nearest parent with go.mod.
func Path(parts ...string) (string, error) {
	root, err := Root()
	if err != nil {
		return "", err
	}
	p := filepath.Join(append([]string{root}, parts...)...)
	if _, err := refdata.Stored(p); err != nil {
		return "", err
	}
	return p, nil
}

// Root returns the reference/ directory of the repository the working directory is in.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "reference"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}
