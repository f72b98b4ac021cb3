package clitool

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A mistake on the command line is one line with the nearest flag and a pointer to -h; -h
// prints the usage; flags may follow paths.
func TestStartAnswersInOneLine(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"--fromat", "json"}, ExitUsage, "x: unknown flag -fromat (did you mean --format?); run 'terraform-provider-karpenter x -h' for usage\n"},
		{[]string{"--zzz"}, ExitUsage, "x: unknown flag -zzz; run 'terraform-provider-karpenter x -h' for usage\n"},
		{[]string{"--format", "xml"}, ExitUsage, `x: unknown --format "xml" (want text or json); run 'terraform-provider-karpenter x -h' for usage` + "\n"},
		{[]string{"-", "-"}, ExitUsage, `x: standard input ("-") can be read only once; run 'terraform-provider-karpenter x -h' for usage` + "\n"},
	} {
		var stdout, stderr bytes.Buffer
		code, done := New("x", "HEAD\n", "TAIL\n", "text", "json").Start(tc.args, &stdout, &stderr, "v")
		if !done || code != tc.code || stderr.String() != tc.stderr {
			t.Errorf("%v: done %v, exit %d, stderr %q, want %q", tc.args, done, code, stderr.String(), tc.stderr)
		}
	}
	var stdout, stderr bytes.Buffer
	if code, done := New("x", "HEAD\n", "TAIL\n", "text").Start([]string{"-h"}, &stdout, &stderr, "v"); !done || code != ExitClean ||
		!strings.HasPrefix(stderr.String(), "HEAD\n") || !strings.Contains(stderr.String(), "-allow-empty") || !strings.HasSuffix(stderr.String(), "TAIL\n") {
		t.Errorf("-h: exit %d\n%s", code, stderr.String())
	}
	c := New("x", "", "", "text")
	if _, done := c.Start([]string{"a", "--strict", "b"}, &stdout, &stderr, "v"); done || !c.Strict || strings.Join(c.Paths, ",") != "a,b" {
		t.Errorf("interspersed: done %v, strict %v, paths %v", done, c.Strict, c.Paths)
	}
}

// Fail prints each joined error on its own line, through wrappers that add nothing.
func TestFailPrintsEachError(t *testing.T) {
	var stderr bytes.Buffer
	joined := errors.Join(errors.New("a: one"), errors.New("a: two\x1b"))
	if code := New("x", "", "", "text").Fail(&stderr, transparent{joined}); code != ExitUsage || stderr.String() != "x: a: one\nx: a: two\\x1b\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	stderr.Reset()
	New("x", "", "", "text").Fail(&stderr, fmt.Errorf("reading: %w", joined))
	if strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), `reading: a: one\na: two`) {
		t.Errorf("a wrapper with words of its own is kept whole: %q", stderr.String())
	}
}

type transparent struct{ err error }

func (e transparent) Error() string { return e.err.Error() }
func (e transparent) Unwrap() error { return e.err }
