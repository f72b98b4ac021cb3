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

func TestMissingReferenceDataSkipsLocallyAndFailsInCI(t *testing.T) {
	t.Setenv("CI", "")
	r := &recorder{}
	Dir(r, "no-such-file.json")
	if r.skipped == "" || r.failed != "" {
		t.Errorf("outside CI: skipped %q, failed %q", r.skipped, r.failed)
	}
	t.Setenv("CI", "true")
	r = &recorder{}
	Dir(r, "no-such-file.json")
	if r.failed == "" || r.skipped != "" {
		t.Errorf("under CI: skipped %q, failed %q", r.skipped, r.failed)
	}
}

func TestPathFindsTheReferenceData(t *testing.T) {
	p, err := Path("upstream", "golden_instancetypes_from_upstream_code.json")
	if err != nil {
		t.Skipf("shared reference data not present here: %v", err)
	}
	if p == "" {
		t.Fatal("empty path")
	}
}
