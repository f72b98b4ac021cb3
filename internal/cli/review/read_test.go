//go:build unix

package review

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// hostileTree writes files into a fresh directory and returns it.
func hostileTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A committed symlink to /dev/zero, or one out of the tree, is refused with KRP012 (an error,
// so the gate fails) instead of reading the device until memory runs out.
func TestSymlinksOutOfTheTreeAreNotRead(t *testing.T) {
	dir := hostileTree(t, map[string]string{"pool.yaml": cleanPool})
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "passwd.yaml")); err != nil {
		t.Fatal(err)
	}
	out := runJSON(t, "", ExitFindings, dir)
	got := findingsOf(out, "KRP012")
	if len(got) != 2 {
		t.Fatalf("KRP012 findings %q, want one per symlink", got)
	}
	for _, m := range got {
		if !strings.Contains(m, "is a symlink that leads outside the reviewed tree") || !strings.Contains(m, "--allow-outside-root") {
			t.Errorf("KRP012 %q does not say the symlink leads outside and how to allow it", m)
		}
	}
	if out.Files != 1 {
		t.Errorf("files = %d, want 1 (the refused ones were not read)", out.Files)
	}
	// Allowed out of the tree, /etc/passwd is read (not a manifest) but /dev/zero is still
	// not a regular file.
	out = runJSON(t, "", ExitFindings, "--allow-outside-root", dir)
	got = findingsOf(out, "KRP012")
	if len(got) != 1 || !strings.Contains(got[0], "zero.yaml is a character device, not a regular file") {
		t.Errorf("with --allow-outside-root: KRP012 %q, want only the device refused", got)
	}
}

// A kustomization's resources cannot lead out of the tree either, and what the review says
// is the same whether the file outside exists or not.
func TestKustomizationResourcesOutOfTheTree(t *testing.T) {
	dir := hostileTree(t, map[string]string{
		"repo/kustomization.yaml": "resources:\n  - pool.yaml\n  - ../../../../../../../../dev/zero\n  - ../secret.yaml\n  - ../missing.yaml\n",
		"repo/pool.yaml":          cleanPool,
		"secret.yaml":             "apiVersion: v1\nkind: Secret\n",
	})
	out := runJSON(t, "", ExitFindings, filepath.Join(dir, "repo"))
	got := findingsOf(out, "KRP012")
	if len(got) != 3 {
		t.Fatalf("KRP012 findings %q, want 3", got)
	}
	want := []string{":3 /dev/zero is outside", ":4 " + filepath.Join(dir, "secret.yaml") + " is outside", ":5 " + filepath.Join(dir, "missing.yaml") + " is outside"}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("KRP012 %q lacks %q", got[i], w)
		}
	}
	// Existing or not, the messages differ only in the name.
	same := func(s, name string) string { return strings.ReplaceAll(s[strings.Index(s, " "):], name, "X") }
	if same(got[1], "secret.yaml") != same(got[2], "missing.yaml") {
		t.Errorf("the messages tell an existing file outside from a missing one:\n%s\n%s", got[1], got[2])
	}
	for _, s := range out.Skipped {
		if strings.Contains(s.Reason, "secret") || strings.Contains(s.Reason, "missing") {
			t.Errorf("skipped %+v discloses a file outside", s)
		}
	}
}

// A FIFO in the tree is refused without opening it (opening blocks until a writer comes);
// named on the command line it is a usage error that says what to do.
func TestFIFOIsNotOpened(t *testing.T) {
	dir := hostileTree(t, map[string]string{"pool.yaml": cleanPool})
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	out := runJSON(t, "", ExitFindings, dir)
	if got := findingsOf(out, "KRP012"); len(got) != 1 || !strings.Contains(got[0], "named pipe (FIFO), not a regular file") {
		t.Errorf("KRP012 %q", got)
	}
	r := run(t, "", fifo)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "named pipe") || !strings.Contains(r.stderr, "with -") {
		t.Errorf("FIFO on the command line: exit %d, stderr %q", r.code, r.stderr)
	}
}

// Files over the per-file limit, and files beyond the total limit, are refused with the limit
// in the message; standard input has the same limit.
func TestReadLimits(t *testing.T) {
	dir := hostileTree(t, map[string]string{"a.yaml": cleanPool, "b.yaml": strings.ReplaceAll(cleanPool, "general", "other"), "c.yaml": "# " + strings.Repeat("x", 2000) + "\n"})
	out := runJSON(t, "", ExitFindings, "--max-file-bytes", "1500", dir)
	if got := findingsOf(out, "KRP012"); len(got) != 1 || !strings.Contains(got[0], "c.yaml has 2003 bytes, more than the limit of 1500 bytes per file") {
		t.Errorf("per-file limit: KRP012 %q", got)
	}
	out = runJSON(t, "", ExitFindings, "--max-total-bytes", "500", dir)
	if got := findingsOf(out, "KRP012"); len(got) != 2 || !strings.Contains(got[0], "would exceed the limit of 500 bytes for all inputs together") {
		t.Errorf("total limit: KRP012 %q", got)
	}
	out = runJSON(t, strings.Repeat("#\n", 1000), ExitFindings, "--max-file-bytes", "100", "-")
	if got := findingsOf(out, "KRP012"); len(got) != 1 || !strings.Contains(got[0], "stdin standard input has more than the limit of 100 bytes") {
		t.Errorf("stdin limit: KRP012 %q", got)
	}
	if r := run(t, "", "--max-file-bytes", "0", dir); r.code != ExitUsage {
		t.Errorf("--max-file-bytes 0: exit %d", r.code)
	}
}

// The config file is bounded too: a committed .karpenter-review.yaml symlinked to /dev/zero
// is an error, not an endless read.
func TestConfigFileIsBounded(t *testing.T) {
	dir := hostileTree(t, map[string]string{"pool.yaml": cleanPool})
	if err := os.Symlink("/dev/zero", filepath.Join(dir, ".karpenter-review.yaml")); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", dir)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "not a regular file") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}
