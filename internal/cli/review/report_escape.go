package review

import (
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
)

// escapeText makes a value from the input safe to print inside a line (clitool.EscapeText).
func escapeText(s string) string { return clitool.EscapeText(s) }

// escapeLead escapes a value that starts a line of the report (after indentation): one that
// would begin with :: is quoted, so no line of the report is a workflow command.
func escapeLead(s string) string {
	s = escapeText(s)
	if t := strings.TrimLeft(s, " \t"); strings.HasPrefix(t, "::") || len(t) != len(s) {
		return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
	}
	return s
}

// escapePath escapes a file path that starts a line: ./ in front keeps it a path editors and
// CI link, and takes :: away from the start.
func escapePath(s string) string {
	s = escapeText(s)
	if strings.HasPrefix(strings.TrimLeft(s, " \t"), "::") || strings.TrimLeft(s, " \t") != s {
		return "./" + s
	}
	return s
}

// sarifEscape escapes a value for a SARIF message: control characters as in the text report,
// and brackets (SARIF's embedded links) with a backslash.
func sarifEscape(s string) string {
	return strings.NewReplacer(`[`, `\[`, `]`, `\]`).Replace(escapeText(s))
}
