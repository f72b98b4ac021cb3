package review

import (
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
)

// Values from the input cannot forge lines of the text report: no raw control character, no
// line that (after blanks) starts a GitHub Actions workflow command, no ##[ legacy command.
func TestTextReportEscapesInputValues(t *testing.T) {
	hostile := "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: \"::error file=a::forged\\n::error file=b::forged\\e[2J\\u202e\"\n" +
		"spec:\n  template:\n    spec:\n      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: \"x\\n::warning::forged ##[error]x\"}\n" +
		"      requirements: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]\n"
	r := run(t, hostile, "-")
	if r.code != ExitFindings {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for i, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") || strings.Contains(line, "##[") {
			t.Errorf("line %d is a workflow command: %q", i+1, line)
		}
		if strings.ContainsAny(line, "\x1b\r\u202e") {
			t.Errorf("line %d has a raw control character: %q", i+1, line)
		}
	}
	if !strings.Contains(r.stdout, `::error file=a::forged\n::error file=b::forged\x1b[2J\u202e`) {
		t.Errorf("the name is not shown escaped:\n%s", r.stdout)
	}
	// A file named like a workflow command still starts its lines with a path.
	if got := report.EscapePath("::error file=x::y.yaml:3"); got != "./::error file=x::y.yaml:3" {
		t.Errorf("escapePath = %q", got)
	}
	if got := report.EscapeLead("  ::x"); got != `"  ::x"` {
		t.Errorf("escapeLead = %q", got)
	}
	if got := report.EscapeText("ok \xff"); got != `ok \xff` {
		t.Errorf("escapeText(invalid UTF-8) = %q", got)
	}
}

// SARIF messages carry no embedded link from the input: brackets are escaped.
func TestSARIFEscapesLinks(t *testing.T) {
	if got := report.SarifEscape("see [here](https://evil.example)\n"); got != `see \[here\](https://evil.example)\n` {
		t.Errorf("sarifEscape = %q", got)
	}
}
