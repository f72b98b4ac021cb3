package analysis

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Issue 31 item 8: a region is read as people write it, and a typo names the nearest regions
// of either cloud; the provider's region and review --region share this.
func TestNormalizeRegion(t *testing.T) {
	for in, want := range map[string]string{"": "", "westeurope": "westeurope", "West Europe": "westeurope", "US-EAST-1": "us-east-1"} {
		if got, err := NormalizeRegion(in); err != nil || got != want {
			t.Errorf("NormalizeRegion(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, near := range map[string]string{"westeurop": "westeurope", "us-east-l": "us-east-1", "eu-west-l": "eu-west-1"} {
		_, err := NormalizeRegion(in)
		var u *UnknownRegionError
		if !errors.As(err, &u) || !strings.Contains(strings.Join(u.Near, ","), near) || !strings.Contains(err.Error(), "did you mean") {
			t.Errorf("NormalizeRegion(%q): %v, want the nearest region %s", in, err, near)
		}
	}
	start := time.Now()
	if _, err := NormalizeRegion(strings.Repeat("x", 1<<20)); err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("a megabyte region: %v after %v", err, time.Since(start))
	}
}
