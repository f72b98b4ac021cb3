package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// built is the provider binary, built once for the tests that run it as a user would
// (binary, shared with the GitOps tests).
func built(t *testing.T) string {
	t.Helper()
	return filepath.Join(binary(t), "terraform-provider-karpenter")
}

type result struct {
	code           int
	stdout, stderr string
}

// runBinary runs the built binary outside Terraform (no plugin handshake variable).
func runBinary(t *testing.T, args ...string) result {
	t.Helper()
	cmd := exec.Command(built(t), args...)
	cmd.Env = append(os.Environ(), magicCookie+"=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, stdout.String(), stderr.String()}
}

// Run bare, with --help or with help, the binary lists its commands with one line each and
// then says it is a Terraform plugin; controller-runtime's -kubeconfig is not among its flags.
func TestBinaryListsItsCommands(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{{nil, 2}, {[]string{"--help"}, 0}, {[]string{"-h"}, 0}, {[]string{"help"}, 0}} {
		r := runBinary(t, tc.args...)
		out := r.stdout + r.stderr
		if r.code != tc.code {
			t.Errorf("%v: exit %d, want %d\n%s", tc.args, r.code, tc.code, out)
		}
		review, simulate, plugin := strings.Index(out, "\n  review "), strings.Index(out, "\n  simulate "), strings.Index(out, "Terraform provider")
		if review < 0 || simulate < review || plugin < simulate {
			t.Errorf("%v: want review, then simulate, then the plugin note:\n%s", tc.args, out)
		}
		if strings.Contains(out, "kubeconfig") || strings.Contains(out, "not meant to be executed directly") {
			t.Errorf("%v: a stray flag or go-plugin's own note:\n%s", tc.args, out)
		}
	}
	if r := runBinary(t, "-kubeconfig", "x"); r.code != 2 || !strings.Contains(r.stderr, `unknown command or flag "-kubeconfig"`) {
		t.Errorf("-kubeconfig: exit %d\n%s", r.code, r.stderr)
	}
	if r := runBinary(t, "reviw"); r.code != 2 || !strings.Contains(r.stderr, "did you mean review?") {
		t.Errorf("reviw: exit %d\n%s", r.code, r.stderr)
	}
}

// --version and --list-codes work at the top and after either command; an unknown flag is one
// line that points at -h, for both commands.
func TestBinaryFlagsAgree(t *testing.T) {
	for _, prefix := range [][]string{nil, {"review"}, {"simulate"}} {
		if r := runBinary(t, append(prefix, "--version")...); r.code != 0 || !strings.HasPrefix(r.stdout, "terraform-provider-karpenter dev\n") || !strings.Contains(r.stdout, "on-demand prices") {
			t.Errorf("%v --version: exit %d\n%s%s", prefix, r.code, r.stdout, r.stderr)
		}
		if r := runBinary(t, append(prefix, "--list-codes")...); r.code != 0 || !strings.Contains(r.stdout, "KRP114  error") {
			t.Errorf("%v --list-codes: exit %d\n%s%s", prefix, r.code, r.stdout, r.stderr)
		}
	}
	for _, cmd := range []string{"review", "simulate"} {
		r := runBinary(t, cmd, "--regoin", "westeurope")
		want := cmd + ": unknown flag -regoin (did you mean --region?); run 'terraform-provider-karpenter " + cmd + " -h' for usage\n"
		if r.code != 2 || r.stderr != want {
			t.Errorf("%s --regoin: exit %d, stderr\n%q\nwant\n%q", cmd, r.code, r.stderr, want)
		}
	}
}
