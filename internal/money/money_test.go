package money

import (
	"math"
	"testing"
)

func TestFormat(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Hourly("", 0.12345), "USD 0.1235/h"},
		{Hourly("CNY", 12.3), "CNY 12.3000/h"},
		{Monthly("CNY", 980.4), "CNY 980/month"},
		{Format("EUR", 0.096, -1), "EUR 0.096"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// Amounts in different currencies are never added.
func TestTotals(t *testing.T) {
	tot := Totals{}
	tot.Add("", 1464)
	tot.Add("USD", 980)
	if c, v, ok := tot.Single(); !ok || c != "USD" || v != 2444 {
		t.Errorf("one currency: %q %v %v", c, v, ok)
	}
	tot.Add("CNY", 916)
	if _, _, ok := tot.Single(); ok {
		t.Error("two currencies summed as one")
	}
	if got := tot.Format(0); got != "CNY 916 + USD 2444" {
		t.Errorf("Format = %q", got)
	}
}

// A difference of two sums keeps no floating-point noise, and an hourly list price is kept whole.
func TestRound(t *testing.T) {
	for _, c := range []struct {
		cur     string
		v, want float64
	}{
		{"USD", 0.5441 - 0.5557, -0.0116},
		{"", -0.011642000000000041, -0.011642},
		{"CNY", 0.0123456, 0.012346},
		{"JPY", 12.345678, 12.3457},
		{"USD", -1e-12, 0},
	} {
		if got := Round(c.cur, c.v); got != c.want {
			t.Errorf("Round(%q, %v) = %v, want %v", c.cur, c.v, got, c.want)
		}
	}
	if got := Round("USD", -1e-12); math.Signbit(got) {
		t.Error("negative zero")
	}
}
