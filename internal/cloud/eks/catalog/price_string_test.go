package catalog

import "testing"

// A price reads with its currency code first, written by money as every amount is.
func TestPriceStringCarriesCurrency(t *testing.T) {
	for _, tc := range []struct {
		p    Price
		want string
	}{
		{Price{Value: 0.096, Currency: "USD", CapacityType: OnDemand, Source: "list"}, "USD 0.096/h on-demand (list)"},
		{Price{Value: 0.61, Currency: "CNY", CapacityType: Spot, Source: "snapshot", Estimate: true}, "CNY 0.61/h spot estimate (snapshot)"},
		{Price{Value: 0.5, CapacityType: OnDemand, Source: "x"}, "USD 0.5/h on-demand (x)"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
}
