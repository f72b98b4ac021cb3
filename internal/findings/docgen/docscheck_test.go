package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// make docs-check regenerates every generated file and fails when the tree then differs from
// its commit (make generated-check). A generated file changed by hand and committed is put back
// by its generator, so the check must fail; on the commit as it is, it must pass. The test runs
// on a clone of the last commit, for the findings template and the EKS catalog (the other
// generators are as fast to rerun but slower to build; the check is the same for every file).
func TestDocsCheckCatchesHandEditedArtefact(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository")
	}
	for _, tool := range []string{"git", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	clone := filepath.Join(t.TempDir(), "repo")
	run := func(dir string, args ...string) (string, error) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(dir string, args ...string) {
		t.Helper()
		if out, err := run(dir, args...); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	must(".", "git", "clone", "-q", strings.TrimSpace(string(root)), clone)
	check := func(generator string) (string, error) {
		must(clone, "go", "generate", generator)
		return run(clone, "make", "-s", "generated-check")
	}
	// A generated guide and a generated catalog, each with its own generator.
	for _, c := range []struct{ generator, artefact string }{
		{"./internal/findings/docgen/", "templates/guides/findings.md.tmpl"},
		{"./internal/cloud/eks/catalog/", "internal/cloud/eks/catalog/catalog.json.gz"},
	} {
		if out, err := check(c.generator); err != nil {
			t.Fatalf("the last commit fails the check after %s ran (a stale generated file is committed):\n%s", c.generator, out)
		}
		artefact := filepath.Join(clone, c.artefact)
		b, err := os.ReadFile(artefact)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(artefact, append(b, "A line added by hand.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		must(clone, "git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-q", "-am", "hand-edited "+c.artefact)
		out, err := check(c.generator)
		if err == nil {
			t.Fatalf("make generated-check passed after a hand-edited %s was committed:\n%s", c.artefact, out)
		}
		if !strings.Contains(out, c.artefact) {
			t.Errorf("the check's output does not name the changed file %s:\n%s", c.artefact, out)
		}
		must(clone, "git", "reset", "-q", "--hard", "HEAD~1") // the next artefact starts from the commit as it is
	}
}
