package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cleanPool draws no finding: 2-vCPU D sizes, five of which its limits hold (KRP119 wants three).
const cleanPool = `apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata: {name: default}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements: [{key: kubernetes.io/arch, operator: In, values: [amd64]}, {key: karpenter.azure.com/sku-family, operator: In, values: [D]}, {key: karpenter.azure.com/sku-cpu, operator: Lt, values: ["3"]}]
  limits: {cpu: "10"}
`

// warnOnly has one warning (no limits) and no error.
const warnOnly = `apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata: {name: default}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements: [{key: kubernetes.io/arch, operator: In, values: [amd64]}, {key: karpenter.azure.com/sku-family, operator: In, values: [D]}]
`

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	badConfig := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(badConfig, []byte("clusters:\n  - name: a\n    paths: [x]\n    regoin: westeurope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		want  int
		// stderr must mention this (usage errors say what is wrong).
		stderr string
	}{
		{"clean", cleanPool, []string{"-"}, ExitClean, ""},
		{"warning below the default threshold", warnOnly, []string{"-"}, ExitClean, ""},
		{"warning reaches --fail-on warning", warnOnly, []string{"--fail-on", "warning", "-"}, ExitFindings, ""},
		{"--strict makes the warning an error", warnOnly, []string{"--strict", "-"}, ExitFindings, ""},
		{"--suppress drops it", warnOnly, []string{"--fail-on=warning", "--suppress", "krp104", "-"}, ExitClean, ""},
		{"errors fail", "", []string{"testdata/single"}, ExitFindings, ""},
		{"flags after paths", "", []string{"testdata/single", "--suppress", "KRP001,KRP002,KRP004,KRP005,KRP006,KRP201"}, ExitClean, ""},
		// An unrendered template was not reviewed: it fails the gate unless allowed.
		{"a template fails the gate", "", []string{"testdata/single", "--suppress", "KRP001,KRP002,KRP004,KRP005,KRP201"}, ExitFindings, ""},
		{"--allow-templates makes it a note", "", []string{"testdata/single", "--allow-templates", "--strict", "--fail-on", "warning", "--suppress", "KRP001,KRP002,KRP003,KRP004,KRP005,KRP119,KRP201,KRP202"}, ExitClean, ""},
		{"-- ends the flags", "", []string{"--", "--format"}, ExitUsage, "--format"},
		{"missing input", "", []string{"testdata/nope"}, ExitUsage, "testdata/nope"},
		{"unknown flag", "", []string{"--colour", "never"}, ExitUsage, "colour"},
		{"unknown format", "", []string{"--format", "xml"}, ExitUsage, "xml"},
		{"unknown --fail-on", "", []string{"--fail-on", "note"}, ExitUsage, "note"},
		{"unknown code", "", []string{"--suppress", "KRP999"}, ExitUsage, "KRP999"},
		{"unknown region", cleanPool, []string{"--region", "westeurop", "-"}, ExitUsage, "did you mean westeurope"},
		{"stdin twice", "", []string{"-", "-"}, ExitUsage, "only once"},
		{"bad config", cleanPool, []string{"--config", badConfig, "-"}, ExitUsage, "regoin"},
		{"help", "", []string{"-h"}, ExitClean, "Usage: terraform-provider-karpenter review"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.stdin, tc.args...)
			if r.code != tc.want {
				t.Fatalf("exit %d, want %d\nstderr: %s\nstdout: %s", r.code, tc.want, r.stderr, r.stdout)
			}
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr %q does not mention %q", r.stderr, tc.stderr)
			}
		})
	}
}

// The text report: place, severity, code, object, message, field and fix; colour only when
// asked for (a buffer is not a terminal), and --output writes the file and logs a summary.
func TestTextReport(t *testing.T) {
	r := run(t, "", "testdata/single")
	for _, want := range []string{
		`testdata/single/pools.yaml:79:11: error KRP001 NodePool/broken: Invalid value: "karpenter.sh/nodepool": label "karpenter.sh/nodepool" is restricted`,
		"    field spec.template.spec.requirements[0].key\n",
		"    fix: Change spec.template.spec.requirements[0].key so that it satisfies the rule quoted in the message.\n",
		"testdata/single/pools.yaml:30:3: warning KRP202 NodePool/batch:",
		"see testdata/single/pools.yaml:6:3",
		"NodePools\n  cluster (unnamed) · no region given\n    old  testdata/single/legacy.yaml:1:1  1 error, 1 warning\n",
		"    general  testdata/single/pools.yaml:1:1  ok\n",
		"    broken  testdata/single/pools.yaml:67:1  2 errors\n      weight 0 · node class missing · limits none\n",
		"7 errors, 5 warnings, 0 notes in 7 files: 1 cluster, 5 NodePools, 3 AKSNodeClasses\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("text report lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "\x1b[") {
		t.Error("colour written to a non-terminal with --color auto")
	}
	colored := run(t, "", "--color", "always", "testdata/single")
	if !strings.Contains(colored.stdout, "\x1b[1m\x1b[31merror\x1b[0m") {
		t.Errorf("--color always: no red error:\n%s", colored.stdout)
	}
	out := filepath.Join(t.TempDir(), "report.txt")
	f := run(t, "", "--output", out, "--color", "always", "testdata/single")
	data, err := os.ReadFile(out)
	if err != nil || f.code != ExitFindings || f.stdout != "" {
		t.Fatalf("--output: %v, exit %d, stdout %q", err, f.code, f.stdout)
	}
	if !strings.Contains(string(data), "KRP001") || !strings.Contains(f.stderr, "wrote text report to "+out+": 7 errors") {
		t.Errorf("--output: file %d bytes, stderr %q", len(data), f.stderr)
	}
}

func TestListCodes(t *testing.T) {
	r := run(t, "", "--list-codes")
	if r.code != ExitClean || !strings.Contains(r.stdout, "KRP001  error    RejectedByAPIServer") || !strings.Contains(r.stdout, "KRP202  warning  EqualWeightOverlap") {
		t.Errorf("--list-codes:\n%s", r.stdout)
	}
}

// --version dates the prices every cost in a report is computed from.
func TestVersionPrintsPriceSnapshots(t *testing.T) {
	r := run(t, "", "--version")
	for _, want := range []string{
		"terraform-provider-karpenter ",
		"on-demand prices: list 2026-06-18 (57 regions, 67497 prices), list 2026-08-22 (4 regions, 175 prices)",
		"spot prices: list 2026-08-22 (5 regions, 6332 prices); elsewhere estimated",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--version lacks %q:\n%s", want, r.stdout)
		}
	}
}
