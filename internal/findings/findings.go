package findings

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Code identifies a kind of finding, e.g. KRP001.
type Code string

// Severity orders findings; the review's --fail-on threshold compares against it.
type Severity int

const (
	// Note is information that never fails a run (e.g. a file that was skipped).
	Note Severity = iota
	// Warning is a likely mistake that Kubernetes accepts.
	Warning
	// Error is something that will be rejected or will not work.
	Error
)

func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity reads "note", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	for _, v := range []Severity{Note, Warning, Error} {
		if strings.EqualFold(s, v.String()) {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want note, warning or error)", s)
}

// Rule documents one code.
type Rule struct {
	Code Code
	// Name is an identifier-like name (SARIF reportingDescriptor.name), e.g. NodeClassNotFound.
	Name     string
	Severity Severity
	// Title is one sentence that names the problem.
	Title string
	// Help says why it matters and how to fix it in general; each finding adds its own
	// specific message and fix.
	Help string
	// Reported says which parts of the project report the code.
	Reported Reporting
	// Alternatives are the severities other than Severity that some findings of the code have,
	// each explained in Help or Reported.Note (Finding.As); strict mode is not one of them.
	Alternatives []Severity
}

// allRules are the rules of every group of codes.
var allRules = slices.Concat(rules, disruptionRules, workloadDisruptionRules, workloadPendingRules, ec2NodeClassRules, fleetRules, changeImpactRules)

var codeFormat = regexp.MustCompile(`^KRP[0-9]{3}$`)

var registry = func() map[Code]Rule {
	m := make(map[Code]Rule, len(allRules))
	for _, r := range allRules {
		if !codeFormat.MatchString(string(r.Code)) {
			panic("findings: malformed code " + r.Code)
		}
		if _, dup := m[r.Code]; dup {
			panic("findings: duplicate code " + r.Code)
		}
		m[r.Code] = r
	}
	return m
}()

// Lookup returns the rule of a code.
func Lookup(c Code) (Rule, bool) {
	r, ok := registry[c]
	return r, ok
}

// MustLookup returns the rule of a code that the caller defines as a constant of this
// package; an unknown one is a programming error.
func MustLookup(c Code) Rule {
	r, ok := registry[c]
	if !ok {
		panic("findings: unregistered code " + c)
	}
	return r
}

// All returns every rule, ordered by code.
func All() []Rule {
	out := slices.Clone(allRules)
	slices.SortFunc(out, func(a, b Rule) int { return strings.Compare(string(a.Code), string(b.Code)) })
	return out
}

// ParseCodes reads a comma-separated list of codes (as given to --suppress), rejecting codes
// the registry does not know so that a typo does not silently suppress nothing.
func ParseCodes(s string) ([]Code, error) {
	var out []Code
	for _, f := range strings.Split(s, ",") {
		f = strings.ToUpper(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		if _, ok := registry[Code(f)]; !ok {
			return nil, fmt.Errorf("unknown finding code %q", f)
		}
		out = append(out, Code(f))
	}
	return out, nil
}

// MarshalText writes the severity's name, so JSON reports say "error", not 2.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity's name.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	*s = v
	return err
}
