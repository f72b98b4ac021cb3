package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Override is a parsed override file; see the package documentation for its format.
type Override struct {
	Replace bool
	// Currency is the ISO 4217 code of the file's prices ("" is USD).
	Currency string
	Sources  []string
	SKUs     []OverrideSKU
	Prices   map[string]map[string]OverridePrice
	Regions  []Region
}

// OverrideSKU is one SKU entry: the fields present patch or define a SKU.
type OverrideSKU struct {
	SKU
	// Capabilities shadows SKU.Capabilities to accept both the API's list form
	// and the object form; nil means "not given".
	Capabilities     CapabilityList `json:"capabilities"`
	KnownToKarpenter *bool          `json:"knownToKarpenter"`
}

// OverridePrice sets the on-demand and/or spot price of one SKU in one region.
// The sources say where a price came from ("list 2026-11-30" for a list price
// of that day, or free text such as "negotiated"); without one it is "override".
type OverridePrice struct {
	OnDemand       *float64 `json:"onDemand"`
	Spot           *float64 `json:"spot"`
	OnDemandSource string   `json:"onDemandSource,omitempty"`
	SpotSource     string   `json:"spotSource,omitempty"`
}

// overrideSource labels a price from an override file: list prices keep their
// dated label, anything else is shown as an override so that it is never
// mistaken for the embedded list.
func overrideSource(given string) string {
	given = strings.TrimSpace(given)
	switch {
	case given == "":
		return SourceOverride
	case given == "list" || strings.HasPrefix(given, "list "), strings.HasPrefix(given, SourceOverride):
		return given
	}
	return SourceOverride + ": " + given
}

// CapabilityList accepts [{"name": "vCPUs", "value": "4"}] as the Resource SKUs
// API returns it, or {"vCPUs": "4", "PremiumIO": true} as snapshots often store
// it; booleans become the API's "True"/"False" and numbers their decimal form.
type CapabilityList []Capability

func (l *CapabilityList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*l = nil
		return nil
	case len(b) > 0 && b[0] == '[':
		var list []Capability
		if err := json.Unmarshal(b, &list); err != nil {
			return err
		}
		*l = CapabilityList(dedupeCapabilities(list))
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("capabilities must be a list of {name, value} or an object: %w", err)
	}
	list := make([]Capability, 0, len(m))
	for name, raw := range m {
		v, err := capabilityValue(raw)
		if err != nil {
			return fmt.Errorf("capability %s: %w", name, err)
		}
		list = append(list, Capability{Name: name, Value: v})
	}
	*l = CapabilityList(dedupeCapabilities(list))
	return nil
}

// capabilityValue renders a JSON scalar the way the Resource SKUs API would.
func capabilityValue(raw json.RawMessage) (string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	switch t := v.(type) {
	case string:
		return t, nil
	case bool:
		if t {
			return "True", nil
		}
		return "False", nil
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), nil
	default:
		return "", fmt.Errorf("value must be a string, boolean or number")
	}
}

// dedupeCapabilities sorts by name and keeps the first of case-insensitive
// duplicates, which is the one skewer's linear lookups would find.
func dedupeCapabilities(list []Capability) []Capability {
	seen := map[string]bool{}
	out := make([]Capability, 0, len(list))
	for _, c := range list {
		key := strings.ToLower(c.Name)
		if c.Name == "" || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

type overrideFile struct {
	Mode     string                              `json:"mode"`
	Currency string                              `json:"currency,omitempty"`
	Sources  []string                            `json:"sources,omitempty"`
	SKUs     []OverrideSKU                       `json:"skus"`
	Prices   map[string]map[string]OverridePrice `json:"prices"`
	Regions  []Region                            `json:"regions"`
}

// LoadOverride reads and parses an override file.
func LoadOverride(path string) (*Override, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("catalog override: %w", err)
	}
	o, err := ParseOverride(b)
	if err != nil {
		return nil, fmt.Errorf("catalog override %s: %w", path, err)
	}
	return o, nil
}

// ParseOverride parses override JSON and checks what can be checked without a base catalog.
func ParseOverride(b []byte) (*Override, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f overrideFile
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data after the JSON object")
	}
	o := &Override{SKUs: f.SKUs, Regions: f.Regions, Sources: f.Sources, Prices: map[string]map[string]OverridePrice{}}
	switch f.Mode {
	case "", "merge":
	case "replace":
		o.Replace = true
	default:
		return nil, fmt.Errorf("mode must be \"merge\" or \"replace\", not %q", f.Mode)
	}
	switch cur := f.Currency; {
	case cur == "" || cur == "USD":
	case !isCurrencyCode(cur):
		return nil, fmt.Errorf("currency must be an ISO 4217 code of three capital letters (USD, EUR, CNY), not %q", cur)
	case !o.Replace:
		// A merge keeps the embedded prices, which are USD: one catalog, one currency.
		return nil, fmt.Errorf("currency %q needs \"mode\": \"replace\": a merge keeps the embedded prices, which are in USD, and Karpenter would rank the two currencies' numbers as one", cur)
	default:
		o.Currency = cur
	}
	names := map[string]bool{}
	for i, s := range o.SKUs {
		if s.Name == "" {
			return nil, fmt.Errorf("skus[%d]: name is required", i)
		}
		if names[s.Name] {
			return nil, fmt.Errorf("skus[%d]: %s appears twice", i, s.Name)
		}
		names[s.Name] = true
	}
	for region, bySKU := range f.Prices {
		if region == "" {
			return nil, fmt.Errorf("prices: empty region name")
		}
		for name, p := range bySKU {
			for _, v := range []*float64{p.OnDemand, p.Spot} {
				if v != nil && (*v < 0 || math.IsNaN(*v) || math.IsInf(*v, 0)) {
					return nil, fmt.Errorf("prices.%s.%s: price must be a non-negative number", region, name)
				}
			}
			if name == "" {
				return nil, fmt.Errorf("prices.%s: empty SKU name", region)
			}
			if p.OnDemandSource != "" && p.OnDemand == nil {
				return nil, fmt.Errorf("prices.%s.%s: onDemandSource is given without onDemand", region, name)
			}
			if p.SpotSource != "" && p.Spot == nil {
				return nil, fmt.Errorf("prices.%s.%s: spotSource is given without spot", region, name)
			}
		}
		o.Prices[strings.ToLower(region)] = bySKU
	}
	for i, r := range o.Regions {
		if r.Name == "" {
			return nil, fmt.Errorf("regions[%d]: name is required", i)
		}
	}
	return o, nil
}

// Apply returns a new catalog with o applied; c is not modified.
func (c *Catalog) Apply(o *Override) (*Catalog, error) {
	var d Data
	if o.Replace {
		d = Data{Prices: map[string]map[string]Prices{}}
	} else {
		d = c.Data()
	}
	d.Meta.Sources = append(append(append([]string(nil), d.Meta.Sources...), o.Sources...), "override")
	if o.Replace {
		d.Meta.Currency = o.Currency
	}

	index := make(map[string]int, len(d.SKUs))
	for i, s := range d.SKUs {
		index[s.Name] = i
	}
	for _, src := range o.SKUs {
		i, exists := index[src.Name]
		if !exists {
			d.SKUs = append(d.SKUs, SKU{Name: src.Name, Size: SizeFromName(src.Name)})
			i = len(d.SKUs) - 1
			index[src.Name] = i
		}
		if err := patchSKU(&d.SKUs[i], src); err != nil {
			return nil, err
		}
	}

	for region, bySKU := range o.Prices {
		dst := d.Prices[region]
		if dst == nil {
			dst = map[string]Prices{}
			d.Prices[region] = dst
		}
		for name, p := range bySKU {
			cur := dst[name]
			if p.OnDemand != nil {
				cur.OnDemand, cur.HasOnDemand, cur.OnDemandSource = *p.OnDemand, true, overrideSource(p.OnDemandSource)
			}
			if p.Spot != nil {
				cur.Spot, cur.HasSpot, cur.SpotSource = *p.Spot, true, overrideSource(p.SpotSource)
			}
			dst[name] = cur
		}
	}

	byRegion := map[string]int{}
	for i, r := range d.Regions {
		byRegion[r.Name] = i
	}
	for _, r := range o.Regions {
		r.Name = strings.ToLower(r.Name)
		if i, ok := byRegion[r.Name]; ok {
			d.Regions[i] = r
		} else {
			byRegion[r.Name] = len(d.Regions)
			d.Regions = append(d.Regions, r)
		}
	}
	return New(d)
}

// isCurrencyCode reports whether s has the form of an ISO 4217 code.
func isCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// patchSKU copies every non-zero field of src onto dst. Zero values are exactly
// the "absent" values of the JSON form (Unknown, unknown OptInt, "", nil), so a
// reflective copy implements "fields present replace" for every field at once.
func patchSKU(dst *SKU, src OverrideSKU) error {
	given := src.SKU
	if src.Capabilities != nil {
		fresh := SKU{Name: dst.Name, Size: dst.Size, Capabilities: []Capability(src.Capabilities)}
		if given.Size != "" {
			fresh.Size = given.Size
		}
		if err := NormaliseFromCapabilities(&fresh); err != nil {
			return fmt.Errorf("catalog override: %w", err)
		}
		// Everything derivable is replaced; descriptive fields the capabilities
		// cannot state (tier, family, GPU model, locations, provenance) are kept.
		fresh.Tier, fresh.Family, fresh.GPUModel, fresh.GPUFraction = dst.Tier, dst.Family, dst.GPUModel, dst.GPUFraction
		fresh.Locations, fresh.KnownToKarpenter, fresh.Source = dst.Locations, dst.KnownToKarpenter, dst.Source
		*dst = fresh
	}
	if src.KnownToKarpenter != nil {
		dst.KnownToKarpenter = *src.KnownToKarpenter
	}

	dv, sv := reflect.ValueOf(dst).Elem(), reflect.ValueOf(given)
	for i := 0; i < sv.NumField(); i++ {
		name := sv.Type().Field(i).Name
		if name == "Locations" || name == "Capabilities" || name == "KnownToKarpenter" {
			continue
		}
		if f := sv.Field(i); !f.IsZero() {
			dv.Field(i).Set(f)
		}
	}
	if len(given.Locations) > 0 {
		locs := make(map[string]Location, len(dst.Locations)+len(given.Locations))
		for r, l := range dst.Locations {
			locs[r] = l
		}
		for r, l := range given.Locations {
			locs[strings.ToLower(r)] = l
		}
		dst.Locations = locs
	}
	if dst.Source == "" {
		dst.Source = "override"
	}
	return nil
}
