package report

import (
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
)

// EscapeText makes a value from the input safe to print inside a line (clitool.EscapeText).
func EscapeText(s string) string { return clitool.EscapeText(s) }

// EscapeLead escapes a value that starts a line of the report (after indentation): one that
// would begin with :: is quoted, so no line of the report is a workflow command.
func EscapeLead(s string) string {
	s = EscapeText(s)
	if t := strings.TrimLeft(s, " \t"); strings.HasPrefix(t, "::") || len(t) != len(s) {
		return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
	}
	return s
}

// EscapePath escapes a file path that starts a line: ./ in front keeps it a path editors and
// CI link, and takes :: away from the start.
func EscapePath(s string) string {
	s = EscapeText(s)
	if strings.HasPrefix(strings.TrimLeft(s, " \t"), "::") || strings.TrimLeft(s, " \t") != s {
		return "./" + s
	}
	return s
}

// SarifEscape escapes a value for a SARIF message: control characters as in the text report,
// and brackets (SARIF's embedded links) with a backslash.
func SarifEscape(s string) string {
	return strings.NewReplacer(`[`, `\[`, `]`, `\]`).Replace(EscapeText(s))
}
