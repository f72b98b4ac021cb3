package reftest

import (
	"fmt"
	"testing"
)

// recorder stands in for a test to observe whether Dir skips or fails.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()                      {}
func (r *recorder) Skipf(f string, args ...any)  { r.skipped = fmt.Sprintf(f, args...) }
func (r *recorder) Fatalf(f string, args ...any) { r.failed = fmt.Sprintf(f, args...) }

// Missing reference data fails, in CI and outside it: it ships with the repository.
func TestMissingReferenceDataFails(t *testing.T) {
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		r := &recorder{}
		Dir(r, "no-such-file.json")
		if r.failed == "" || r.skipped != "" {
			t.Errorf("CI=%q: skipped %q, failed %q", ci, r.skipped, r.failed)
		}
	}
}

// A compressed file is found under its logical name.
func TestPathFindsCompressedReferenceData(t *testing.T) {
	p, err := Path("upstream", "golden_instancetypes_from_upstream_code.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Root(); p != got+"/upstream/golden_instancetypes_from_upstream_code.json" {
		t.Errorf("Path = %s, want the logical name under %s", p, got)
	}
}
