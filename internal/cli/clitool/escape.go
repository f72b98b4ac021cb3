package clitool

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Values in the text report come from the input: in CI on a pull request, from whoever wrote
// it. A metadata.name with an ESC sequence would repaint the terminal, one with a newline
// would start a line of its own, and a line starting with ::error (after blanks) is a GitHub
// Actions workflow command that forges an annotation. So every value is escaped (control and
// invisible format characters, invalid UTF-8, the legacy ##[ command prefix) and values that
// start a line cannot start with ::.

// EscapeText makes s safe to print inside a line: it shows the characters a terminal or log
// parser would act on as Go escapes (\n, \x1b, \u202e) and leaves the rest as written.
func EscapeText(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		case r == '#' && strings.HasPrefix(s[i:], "##["):
			b.WriteString(`#\x23`) // the [ follows as written
			n = 2
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isPlain: printable ASCII without the ##[ prefix, the common case, needs no escaping.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return !strings.Contains(s, "##[")
}
