package findings

import (
	"strings"
	"testing"
)

// The registry is what SARIF rule metadata and user-facing docs are generated from, so every
// entry must be complete and codes must be unique and well-formed (init panics otherwise).
func TestRegistryComplete(t *testing.T) {
	seenNames := map[string]Code{}
	all := All()
	if len(all) != len(registry) {
		t.Fatalf("All() returned %d rules, registry has %d", len(all), len(registry))
	}
	for i, r := range all {
		if i > 0 && all[i-1].Code >= r.Code {
			t.Errorf("All() not ordered: %s before %s", all[i-1].Code, r.Code)
		}
		if r.Name == "" || r.Title == "" || r.Help == "" {
			t.Errorf("%s: name, title and help are required: %+v", r.Code, r)
		}
		if strings.ContainsAny(r.Name, " -_.") {
			t.Errorf("%s: name %q must be an identifier", r.Code, r.Name)
		}
		if prev, dup := seenNames[r.Name]; dup {
			t.Errorf("%s and %s share the name %s", prev, r.Code, r.Name)
		}
		seenNames[r.Name] = r.Code
		if !r.Reported.Plan && !r.Reported.Review {
			t.Errorf("%s: reported by neither the plan nor the review: set Reported in the registry entry", r.Code)
		}
		if r.Reported.Resource != "" && !r.Reported.Plan {
			t.Errorf("%s: Reported.Resource %s names a plan, but Plan is false", r.Code, r.Reported.Resource)
		}
		if got := MustLookup(r.Code); got.Code != r.Code {
			t.Errorf("MustLookup(%s) = %s", r.Code, got.Code)
		}
	}
}

func TestParseCodes(t *testing.T) {
	got, err := ParseCodes(" krp104, KRP001,,")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != NoLimits || got[1] != APIServerRejects {
		t.Errorf("ParseCodes = %v", got)
	}
	if _, err := ParseCodes("KRP104,KRP999"); err == nil || !strings.Contains(err.Error(), "KRP999") {
		t.Errorf("unknown code accepted: %v", err)
	}
}

func TestSeverity(t *testing.T) {
	for _, s := range []Severity{Note, Warning, Error} {
		got, err := ParseSeverity(strings.ToUpper(s.String()))
		if err != nil || got != s {
			t.Errorf("ParseSeverity(%s) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity accepted fatal")
	}
	if !(Note < Warning && Warning < Error) {
		t.Error("severities must be ordered note < warning < error for --fail-on")
	}
}
