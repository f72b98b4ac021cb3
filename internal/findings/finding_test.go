package findings

import (
	"strings"
	"testing"
)

// A finding's severity is the registry's; As takes only an alternative the registry documents,
// Strict raises warnings only.
func TestFindingSeverity(t *testing.T) {
	f := New(NoLimits, "spec.limits", "no limits", "set limits")
	if f.Severity() != Warning || f.Strict().Severity() != Error || f.Severity() != Warning {
		t.Errorf("KRP104: %v, strict %v", f.Severity(), f.Strict().Severity())
	}
	if n := New(SpotSavings, "", "m", "").Strict(); n.Severity() != Note {
		t.Errorf("strict mode changed a note: %v", n.Severity())
	}
	if e := New(NoInstanceType, "", "m", "").Strict(); e.Severity() != Error {
		t.Errorf("strict mode changed an error: %v", e.Severity())
	}
	if got := New(NeverRightSized, "", "m", "").As(Warning).Severity(); got != Warning {
		t.Errorf("documented alternative: %v", got)
	}
	if got := New(NoLimits, "", "m", "").As(Warning).Severity(); got != Warning {
		t.Errorf("the registry's own severity: %v", got)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "KRP104 is documented as warning, not error") {
			t.Errorf("As with an undocumented severity: %v", r)
		}
	}()
	New(NoLimits, "", "m", "").As(Error)
}

// The documented alternatives differ from the rule's severity, and the rule's texts say when
// they apply (the guide renders Help and Reported.Note).
func TestAlternativesDocumented(t *testing.T) {
	words := map[Severity][]string{Note: {"note"}, Warning: {"warning", "warns"}, Error: {"error"}}
	for _, r := range All() {
		for _, s := range r.Alternatives {
			if s == r.Severity {
				t.Errorf("%s: alternative %s is its severity", r.Code, s)
			}
			text := strings.ToLower(r.Help + " " + r.Reported.Note)
			found := false
			for _, w := range words[s] {
				found = found || strings.Contains(text, w)
			}
			if !found {
				t.Errorf("%s: alternative %s is not explained in its help or note", r.Code, s)
			}
		}
	}
}

func TestFindingSummary(t *testing.T) {
	if got := New(NoLimits, "", "m", "").Summary(); got != "KRP104: The NodePool has no limits" {
		t.Errorf("summary %q", got)
	}
}
