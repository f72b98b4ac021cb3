package review

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
)

// Only a document that fails to parse because of template actions is a template (KRP006):
// braces in a comment or in a quoted value do not stop the review, and bytes that are no
// YAML at all are a syntax error, not a note that lets the gate pass.
func TestTemplateDetection(t *testing.T) {
	t.Run("braces in a comment", func(t *testing.T) {
		out := runJSON(t, "# rendered from {{ .Values.pool }}\n"+cleanPool, ExitClean, "-")
		if len(out.Findings) != 0 || len(out.Pools) != 1 {
			t.Errorf("the pool was not reviewed: findings %v, pools %d", out.brief(), len(out.Pools))
		}
	})
	t.Run("braces in a comment and a syntax error", func(t *testing.T) {
		out := runJSON(t, "# {{ x }}\nkind: NodePool\nmetadata: {name: a\n", ExitFindings, "-")
		sameLines(t, out.brief(), []string{"stdin:3 KRP005 "})
	})
	t.Run("quoted template value is reviewed as written", func(t *testing.T) {
		doc := strings.Replace(cleanPool, "{name: general}", `{name: "{{ .Values.name }}"}`, 1)
		out := runJSON(t, doc, ExitFindings, "-")
		if got := findingsOf(out, "KRP001"); len(got) == 0 {
			t.Errorf("the API server rejects the name; findings %v", out.brief())
		}
	})
	t.Run("random bytes", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		b := make([]byte, 1<<20)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		copy(b[1000:], "{{ }}")
		out := runJSON(t, string(b), ExitFindings, "--strict", "--fail-on", "warning", "-")
		if len(out.Findings) != 1 || out.Findings[0].Code != "KRP005" || out.Findings[0].Severity != "error" {
			t.Errorf("findings %v, want one KRP005 error", out.brief())
		}
	})
	t.Run("helm template", func(t *testing.T) {
		chart := "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: {{ .Values.name }}\nspec:\n  {{- toYaml .Values.spec | nindent 2 }}\n"
		out := runJSON(t, chart, ExitFindings, "-")
		if len(out.Findings) != 1 || out.Findings[0].Code != "KRP006" || out.Findings[0].Severity != "error" {
			t.Errorf("findings %+v, want one KRP006 error", out.Findings)
		}
		out = runJSON(t, chart, ExitClean, "--allow-templates", "--strict", "--fail-on", "warning", "-")
		if len(out.Findings) != 1 || out.Findings[0].Severity != "note" {
			t.Errorf("--allow-templates: findings %+v, want one KRP006 note", out.Findings)
		}
	})
}

// Invalid UTF-8 is reported at its own line, not the document's first.
func TestInvalidUTF8Line(t *testing.T) {
	out := runJSON(t, "a: 1\n---\nb: 2\nc: x\xffy\n", ExitFindings, "-")
	if len(out.Findings) != 1 || out.Findings[0].Line != 4 || !strings.Contains(out.Findings[0].Message, "byte 0xff at column 5 is not UTF-8") {
		t.Errorf("findings %+v, want KRP005 at line 4", out.Findings)
	}
}

// findingsOf lists the findings of a code as place, message and fix.
func findingsOf(out jsonOut, code string) []string {
	var msgs []string
	for _, f := range out.Findings {
		if f.Code == code {
			msgs = append(msgs, report.PlaceOf(f.Location)+" "+f.Message+" (fix: "+f.Fix+")")
		}
	}
	return msgs
}
