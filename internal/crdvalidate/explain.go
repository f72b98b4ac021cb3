package crdvalidate

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Explain words a rejection for the person who wrote the value. The failing rule may be a
// pattern this package recognises (a duration, a quantity, a label key or value) or an RFC 1123
// name. Then the message says what a valid value looks like instead of quoting the regular
// expression. It suggests the nearest valid value when one is evident (Nearest). The verdict
// (type, field, value) stays the API server's; any other rejection is worded as the API server
// words it.
func Explain(e *field.Error) string {
	valid, nearest, ok := explainRule(e)
	if !ok {
		return e.ErrorBody()
	}
	if nearest != "" {
		valid += fmt.Sprintf("; did you mean %q?", nearest)
	}
	return (&field.Error{Type: e.Type, Field: e.Field, BadValue: e.BadValue, Detail: valid}).ErrorBody()
}

// Nearest is the valid value closest to the one a rejection names, for the rules Explain
// words ("5 min" → "5m", "200 cores" → "200"), or "" when none is evident.
func Nearest(e *field.Error) string {
	_, nearest, _ := explainRule(e)
	return nearest
}

// patternRule is the regular expression quoted by an OpenAPI pattern failure ("... should
// match '<pattern>'", kube-openapi's wording).
var patternRule = regexp.MustCompile(`should match '(.+)'$`)

// explainRule says what a valid value of the failing rule looks like and suggests one.
func explainRule(e *field.Error) (valid, nearest string, ok bool) {
	if e.Type != field.ErrorTypeInvalid {
		return "", "", false
	}
	value, isString := e.BadValue.(string)
	if strings.Contains(e.Detail, "RFC 1123 subdomain") && isString {
		return "a name is a lowercase RFC 1123 subdomain: at most 253 lower-case letters, digits, '-' and '.', " +
			"starting and ending with a letter or digit (e.g. general-purpose)", nearestName(value), true
	}
	m := patternRule.FindStringSubmatch(e.Detail)
	if m == nil || !isString {
		return "", "", false
	}
	pattern := m[1]
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", "", false
	}
	// Only a candidate the rule accepts is suggested.
	first := func(candidates ...string) string {
		for _, c := range candidates {
			if c != "" && c != value && re.MatchString(c) {
				return c
			}
		}
		return ""
	}
	switch {
	case strings.Contains(pattern, "(s|m|h)"):
		valid = "a duration is whole numbers with the units s, m and h, such as 30s, 5m or 1h30m"
		if strings.Contains(pattern, "Never") {
			valid += ", or Never"
		}
		return valid, first(nearestDurations(value)...), true
	case strings.Contains(pattern, "(h|m)"):
		return "a duration is whole hours and minutes, such as 10m, 2h or 1h30m", first(nearestDurations(value)...), true
	case strings.Contains(pattern, "Ei|Pi|Ti|Gi|Mi|Ki"):
		return "a size is a whole number with a unit, such as 100Gi (binary) or 100G (decimal)", first(nearestQuantities(value)...), true
	case strings.Contains(pattern, "[KMGTPE]i"):
		return "a quantity is a number with an optional suffix, such as 200 (CPUs), 500m (thousandths of a CPU), " +
			"800Gi or 512Mi (binary bytes) or 1G (decimal)", first(nearestQuantities(value)...), true
	case strings.HasPrefix(pattern, `^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`):
		return "a label key is an optional DNS subdomain and '/', then a name of letters, digits, '-', '_' and '.' " +
			"starting and ending with a letter or digit (e.g. karpenter.azure.com/sku-family or team)", first(nearestLabelKey(value)), true
	case pattern == `^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`:
		return "a label value is empty or at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit",
			first(nearestLabelValue(value)), true
	}
	return "", "", false
}

// durationTerm is one number and unit of a duration as people write it ("5 min", "1.5 hours").
var durationTerm = regexp.MustCompile(`([0-9]+(?:[.,][0-9]+)?)\s*([a-zA-Z]*)`)

// durationUnits maps unit words (lower case; none: seconds) to their length.
var durationUnits = map[string]time.Duration{
	"": time.Second, "s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"h": time.Hour, "hr": time.Hour, "hrs": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"w": 7 * 24 * time.Hour, "week": 7 * 24 * time.Hour, "weeks": 7 * 24 * time.Hour,
}

// nearestDurations are the valid spellings of the duration value means, most natural first:
// "5 min" → 5m, "1.5h" → 1h30m (or 90m), "2 days" → 48h, "never" → Never.
func nearestDurations(value string) []string {
	s := strings.TrimSpace(value)
	if strings.EqualFold(s, "never") {
		return []string{"Never"}
	}
	terms := durationTerm.FindAllStringSubmatchIndex(s, -1)
	if len(terms) == 0 {
		return nil
	}
	var total time.Duration
	end := 0
	for _, t := range terms {
		if strings.TrimSpace(s[end:t[0]]) != "" {
			return nil // words between the terms: not a duration
		}
		end = t[1]
		n, err := parseNumber(s[t[2]:t[3]])
		unit, known := durationUnits[strings.ToLower(s[t[4]:t[5]])]
		if err != nil || !known || n*float64(unit) > float64(math.MaxInt64/4) {
			return nil // not a duration, or beyond what a duration holds
		}
		total += time.Duration(math.Round(n * float64(unit)))
	}
	if strings.TrimSpace(s[end:]) != "" || total <= 0 {
		return nil
	}
	h, m, sec := int64(total/time.Hour), int64(total%time.Hour/time.Minute), int64(total%time.Minute/time.Second)
	var out []string
	canonical := ""
	if h > 0 {
		canonical += fmt.Sprintf("%dh", h)
	}
	if m > 0 {
		canonical += fmt.Sprintf("%dm", m)
	}
	if sec > 0 {
		canonical += fmt.Sprintf("%ds", sec)
	}
	out = append(out, canonical)
	if sec == 0 && h > 0 && m > 0 {
		out = append(out, fmt.Sprintf("%dm", h*60+m))
	}
	if sec > 0 {
		// Rules without seconds: the minutes it rounds up to.
		mins := (int64(total) + int64(time.Minute) - 1) / int64(time.Minute)
		out = append(out, fmt.Sprintf("%dm", mins))
	}
	return out
}

// quantityTerm is a number and a unit as people write it ("200 cores", "16 GB", "1,5Gi").
var quantityTerm = regexp.MustCompile(`^([+-]?[0-9]+(?:[.,][0-9]+)?)\s*([a-zA-Z]*)$`)

// quantityUnits maps unit words (lower case) to Kubernetes quantity suffixes.
var quantityUnits = map[string][]string{
	"": {""}, "core": {""}, "cores": {""}, "cpu": {""}, "cpus": {""}, "vcpu": {""}, "vcpus": {""},
	"m": {"m"}, "millicore": {"m"}, "millicores": {"m"}, "mcpu": {"m"}, "millicpu": {"m"},
	"b": {""}, "byte": {""}, "bytes": {""},
	"k": {"k", "K"}, "kb": {"k", "K"}, "ki": {"Ki"}, "kib": {"Ki"},
	"mb": {"M"}, "mi": {"Mi"}, "mib": {"Mi"},
	"g": {"G"}, "gb": {"G"}, "gi": {"Gi"}, "gib": {"Gi"},
	"t": {"T"}, "tb": {"T"}, "ti": {"Ti"}, "tib": {"Ti"},
	"p": {"P"}, "pb": {"P"}, "pi": {"Pi"}, "pib": {"Pi"},
	"e": {"E"}, "eb": {"E"}, "ei": {"Ei"}, "eib": {"Ei"},
}

// nearestQuantities are the quantities value means: "200 cores" → 200, "16 GB" → 16G,
// "512MiB" → 512Mi, "1,5" → 1.5.
func nearestQuantities(value string) []string {
	m := quantityTerm.FindStringSubmatch(strings.TrimSpace(value))
	if m == nil {
		return nil
	}
	n := strings.Replace(m[1], ",", ".", 1)
	unit := m[2]
	suffixes, ok := quantityUnits[strings.ToLower(unit)]
	if unit == "M" {
		suffixes, ok = []string{"M"}, true // mega, not milli
	}
	if !ok {
		return nil
	}
	out := make([]string, 0, len(suffixes))
	for _, s := range suffixes {
		out = append(out, n+s)
	}
	return out
}

// nearestName is the RFC 1123 subdomain closest to value: lower case, other characters as '-'.
func nearestName(value string) string {
	name := strings.Trim(replaceRuns(strings.ToLower(value), isDNSChar), "-.")
	if len(name) > validation.DNS1123SubdomainMaxLength {
		name = strings.Trim(name[:validation.DNS1123SubdomainMaxLength], "-.")
	}
	if name == value || len(validation.IsDNS1123Subdomain(name)) > 0 {
		return ""
	}
	return name
}

// nearestLabelKey is the label key closest to value: its prefix as a lowercase subdomain,
// other characters of its name as '-'.
func nearestLabelKey(value string) string {
	prefix, name, hasPrefix := strings.Cut(value, "/")
	if !hasPrefix {
		return nearestLabelValue(value)
	}
	prefix, name = strings.Trim(replaceRuns(strings.ToLower(prefix), isDNSChar), "-."), nearestLabelValue(name)
	if prefix == "" || name == "" {
		return ""
	}
	return prefix + "/" + name
}

// nearestLabelValue is the label value closest to value: other characters as '-'.
func nearestLabelValue(value string) string {
	v := strings.Trim(replaceRuns(value, func(r rune) bool { return isDNSChar(r) || r >= 'A' && r <= 'Z' || r == '_' }), "-_.")
	if len(v) > validation.LabelValueMaxLength {
		v = strings.Trim(v[:validation.LabelValueMaxLength], "-_.")
	}
	return v
}

// isDNSChar says that r may appear in a lowercase RFC 1123 subdomain.
func isDNSChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.'
}

// replaceRuns replaces each run of characters keep rejects with one '-'.
func replaceRuns(s string, keep func(rune) bool) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		if keep(r) {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return b.String()
}

func parseNumber(s string) (float64, error) {
	var f float64
	_, err := fmt.Sscan(strings.Replace(s, ",", ".", 1), &f)
	return f, err
}
