package money

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// USD is what a price is in when its table says nothing else: Karpenter's providers price in
// US dollars everywhere but AWS's China partition (CNY).
const USD = "USD"

// Code is cur as shown: "" is USD.
func Code(cur string) string {
	if cur == "" {
		return USD
	}
	return cur
}

// minorUnits are the ISO 4217 decimals of the currencies the price tables use; any other has 2.
var minorUnits = map[string]int{"JPY": 0, "KRW": 0}

// Decimals is the precision money figures in cur are kept at: four places below the currency's
// minor unit (USD, CNY: a millionth). That is the precision of the hourly list prices the
// tables give (Azure's retail prices API and AWS's price list). So an hourly price is never
// rounded off, while a sum's floating-point noise is.
func Decimals(cur string) int {
	if d, ok := minorUnits[Code(cur)]; ok {
		return d + 4
	}
	return 6
}

// Round rounds an amount in cur to Decimals(cur): every money figure a report or attribute
// gives is rounded so, so that a difference of two sums (0.5557 − 0.5441) is 0.0116, not
// 0.011600000000000055. Negative zero becomes zero.
func Round(cur string, v float64) float64 {
	p := math.Pow10(Decimals(cur))
	r := math.Round(v*p) / p
	if r == 0 {
		return 0
	}
	return r
}

// Format is the amount with its currency, with prec decimals (prec < 0: as few as represent
// it exactly): "USD 0.1234", "CNY 980".
func Format(cur string, v float64, prec int) string {
	return Code(cur) + " " + strconv.FormatFloat(v, 'f', prec, 64)
}

// Hourly is an hourly price or cost at 4 decimals: "USD 0.1234/h".
func Hourly(cur string, v float64) string { return Format(cur, v, 4) + "/h" }

// Monthly is a monthly cost in whole units: "USD 145037/month".
func Monthly(cur string, v float64) string { return Format(cur, v, 0) + "/month" }

// Same reports whether two currencies are the same ("" being USD).
func Same(a, b string) bool { return Code(a) == Code(b) }

// Totals are sums kept per currency, for figures across clusters or regions priced in
// different currencies.
type Totals map[string]float64

// Add adds v in cur.
func (t Totals) Add(cur string, v float64) { t[Code(cur)] += v }

// Single returns the currency and the sum when all amounts were in one currency.
func (t Totals) Single() (cur string, v float64, ok bool) {
	if len(t) != 1 {
		return "", 0, false
	}
	for c, s := range t {
		return c, s, true
	}
	return "", 0, false
}

// Currencies are the currencies summed, sorted.
func (t Totals) Currencies() []string {
	out := make([]string, 0, len(t))
	for c := range t {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// Format is each currency's sum, sorted by currency and joined with " + ", which no reader
// takes for one number: "CNY 980 + USD 1464".
func (t Totals) Format(prec int) string {
	parts := make([]string, 0, len(t))
	for _, c := range t.Currencies() {
		parts = append(parts, Format(c, t[c], prec))
	}
	return strings.Join(parts, " + ")
}
