package findings

import (
	"fmt"
	"slices"
)

// Finding is one problem found, the one value every check raises: the solver, the review, the
// workload reader, the simulation, the provider's resources. It holds a code of the registry,
// the object and Kubernetes field path it concerns, what was found and what to change. Its
// severity is not set where it is raised: it is the registry's (Severity), or one of the
// alternatives the registry documents for the code (As). Where a finding is shown — a
// Terraform diagnostic, a review report — strict mode and suppression apply the same way.
type Finding struct {
	Code Code
	// Object names the object concerned as kubectl does (NodePool/general); empty when the
	// caller knows it (the pool an analysis is about).
	Object string
	// Path is the Kubernetes field path concerned ("spec.limits",
	// "spec.template.spec.requirements[1].values"); empty for the object as a whole.
	Path    string
	Message string
	// Fix says what to change, specific to this finding.
	Fix string
	// Related are other places involved, e.g. the pools a pool competes with.
	Related []Ref
	// SuggestedCap is the cap the fix asks to add as a requirement, when it asks for one. It
	// lets another check's fix on the same pool take it into account without parsing text.
	SuggestedCap *Cap

	// severity is set by As or Strict, when overridden; otherwise the registry's applies.
	severity   Severity
	overridden bool
}

// Cap is a requirement "Key Lt Below" on a pool's instance types.
type Cap struct {
	Key   string
	Below int
}

// Ref is a place a finding involves besides its own: an object and a field path of it.
type Ref struct {
	Object string
	Path   string
}

// New returns a finding of code about path (a Kubernetes field path; "" for the whole object).
func New(code Code, path, message, fix string) Finding {
	return Finding{Code: code, Path: path, Message: message, Fix: fix}
}

// On returns f about the object named as kubectl does (NodePool/general).
func (f Finding) On(object string) Finding {
	f.Object = object
	return f
}

// Rule is the registry's entry of the finding's code.
func (f Finding) Rule() Rule { return MustLookup(f.Code) }

// Severity is the finding's severity: the registry's for its code, unless As chose one of the
// alternatives the registry documents or Strict raised a warning.
func (f Finding) Severity() Severity {
	if f.overridden {
		return f.severity
	}
	return MustLookup(f.Code).Severity
}

// As returns f with severity s. It must be the registry's, or one of the alternatives the
// registry documents for the code (Rule.Alternatives, explained in the code's help or note).
// So a raise site cannot invent a severity the docs do not state. An undocumented one is a
// programming error, which the registry tests catch.
func (f Finding) As(s Severity) Finding {
	r := MustLookup(f.Code)
	if s != r.Severity && !slices.Contains(r.Alternatives, s) {
		panic(fmt.Sprintf("findings: %s is documented as %s, not %s: add it to the rule's Alternatives and say when in its help", f.Code, r.Severity, s))
	}
	f.severity, f.overridden = s, true
	return f
}

// Strict returns f as strict mode reports it: a warning becomes an error (terraform plan with
// checks.strict, review --strict). Strict mode is documented for every code.
func (f Finding) Strict() Finding {
	if f.Severity() == Warning {
		f.severity, f.overridden = Error, true
	}
	return f
}

// Summary is the one-line heading of the finding: its code and the registry's title, as
// diagnostics show it ("KRP104: The NodePool has no limits").
func (f Finding) Summary() string {
	if r, ok := Lookup(f.Code); ok {
		return string(f.Code) + ": " + trimPeriod(r.Title)
	}
	return string(f.Code)
}

func (f Finding) String() string {
	s := fmt.Sprintf("%s %s: %s", f.Severity(), f.Code, f.Message)
	if f.Path != "" {
		s = f.Path + ": " + s
	}
	return s
}

func trimPeriod(s string) string {
	if n := len(s); n > 0 && s[n-1] == '.' {
		return s[:n-1]
	}
	return s
}
