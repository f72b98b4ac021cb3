// Package findings is the one registry of the problems this project reports about NodePools
// and AKSNodeClasses: a stable code, a default severity, a title and the help text for each.
// The review command and the provider's plan-time checks both report through it. So a code
// means the same thing in a pull request annotation, a CI log and a terraform plan, and
// suppressing it works the same everywhere.
//
// Codes are never reused or renumbered. They are grouped by what raises them:
//   - KRP0xx: input and API-server checks;
//   - KRP1xx: provisioning checks of one NodePool against the SKU catalog (internal/analysis);
//   - KRP2xx: checks across the objects of one cluster;
//   - KRP3xx: workloads read from manifests (internal/workload), and from KRP320 differences
//     between the clusters of a fleet group (codes_fleet.go);
//   - KRP4xx: disruption and lifecycle checks of one NodePool (codes_disruption.go).
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
