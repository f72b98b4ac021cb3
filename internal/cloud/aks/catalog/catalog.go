package catalog

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
)

// Data is the plain content of a catalog, as builders and override files supply it.
type Data struct {
	Meta    Meta
	SKUs    []SKU
	Regions []Region
	// Prices maps region → SKU name → prices. Names need not be in SKUs: the
	// price lists also carry sizes that no capability source describes.
	Prices map[string]map[string]Prices
}

// Catalog is an immutable, indexed set of SKUs, regions and prices. It is safe
// for concurrent use; returned slices and SKUs are shared and must not be modified.
type Catalog struct {
	meta     Meta
	skus     []*SKU
	byName   map[string]*SKU
	regions  []string
	region   map[string]Region
	prices   map[string]*regionPrices
	inRegion map[string][]*SKU

	ratiosOnce sync.Once
	ratios     *spotRatioIndex // built on first use by spotRatios
}

// New validates d and indexes it. SKU names must be unique; region names are
// lower-cased because Azure compares them case-insensitively. The catalog
// shares the slices inside d's SKUs, so callers must not modify them afterwards.
func New(d Data) (*Catalog, error) {
	prices := make(map[string]map[string]Prices, len(d.Prices))
	for region, bySKU := range d.Prices {
		lower := strings.ToLower(region)
		dst := prices[lower]
		if dst == nil {
			dst = make(map[string]Prices, len(bySKU))
			prices[lower] = dst
		}
		for name, p := range bySKU {
			dst[name] = canonicalPrices(p)
		}
	}
	sorted := make(map[string]*regionPrices, len(prices))
	for region, m := range prices {
		sorted[region] = regionPricesFromMap(m)
	}
	return build(d, sorted)
}

// canonicalPrices gives a price without a stated source the undated list label,
// and an absent price no source, so that every form of the data agrees.
func canonicalPrices(p Prices) Prices {
	fix := func(has bool, src *string) {
		switch {
		case !has:
			*src = ""
		case *src == "":
			*src = ListSource("")
		}
	}
	fix(p.HasOnDemand, &p.OnDemandSource)
	fix(p.HasSpot, &p.SpotSource)
	return p
}

// build indexes d with its prices already in sorted per-region form, which the
// decoder produces directly.
func build(d Data, prices map[string]*regionPrices) (*Catalog, error) {
	c := &Catalog{
		meta:   d.Meta,
		byName: make(map[string]*SKU, len(d.SKUs)),
		region: make(map[string]Region, len(d.Regions)),
		prices: prices,
	}
	c.skus = make([]*SKU, 0, len(d.SKUs))
	for i := range d.SKUs {
		s := d.SKUs[i]
		if err := validateSKU(&s); err != nil {
			return nil, err
		}
		if _, dup := c.byName[s.Name]; dup {
			return nil, fmt.Errorf("catalog: SKU %s appears twice", s.Name)
		}
		canonicalise(&s)
		c.byName[s.Name] = &s
		c.skus = append(c.skus, &s)
	}
	sort.Slice(c.skus, func(i, j int) bool { return c.skus[i].Name < c.skus[j].Name })

	for _, r := range d.Regions {
		if r.Name == "" {
			return nil, fmt.Errorf("catalog: region without a name")
		}
		r.Name = strings.ToLower(r.Name)
		c.region[r.Name] = r
	}
	for region, rp := range c.prices {
		for i, name := range rp.names {
			if err := validatePrices(region, name, rp.vals[i]); err != nil {
				return nil, err
			}
		}
	}
	c.index()
	return c, nil
}

// canonicalise gives every fact one representation: an empty list means the
// same as an absent one everywhere except Location.Zones, where an empty list
// is the API saying "regional only". Without this, JSON's omitempty and the
// binary format would disagree about what a catalog contains.
func canonicalise(s *SKU) {
	nilIfEmpty := func(l []string) []string {
		if len(l) == 0 {
			return nil
		}
		return l
	}
	s.HyperVGenerations = nilIfEmpty(s.HyperVGenerations)
	s.EphemeralOSDiskPlacements = nilIfEmpty(s.EphemeralOSDiskPlacements)
	if len(s.Capabilities) == 0 {
		s.Capabilities = nil
	}
	if len(s.Locations) == 0 {
		s.Locations = nil
		return
	}
	locs := make(map[string]Location, len(s.Locations))
	for r, l := range s.Locations {
		l.Zones = append([]string{}, l.Zones...)
		sort.Strings(l.Zones)
		if len(l.Capabilities) == 0 {
			l.Capabilities = nil
		}
		if len(l.ZoneDetails) == 0 {
			l.ZoneDetails = nil
		}
		if len(l.Restrictions) == 0 {
			l.Restrictions = nil
		}
		restrictions := make([]Restriction, len(l.Restrictions))
		for i, rs := range l.Restrictions {
			rs.Values, rs.Zones = nilIfEmpty(rs.Values), nilIfEmpty(rs.Zones)
			restrictions[i] = rs
		}
		if l.Restrictions != nil {
			l.Restrictions = restrictions
		}
		locs[strings.ToLower(r)] = l
	}
	s.Locations = locs
}

func validateSKU(s *SKU) error {
	switch {
	case s.Name == "":
		return fmt.Errorf("catalog: SKU without a name")
	case s.VCPUs <= 0:
		return fmt.Errorf("catalog: SKU %s has no vCPU count", s.Name)
	case !(s.MemoryGiB > 0) || math.IsInf(s.MemoryGiB, 0):
		return fmt.Errorf("catalog: SKU %s has no memory size", s.Name)
	}
	return nil
}

func validatePrices(region, name string, p Prices) error {
	bad := func(v float64) bool { return v < 0 || math.IsNaN(v) || math.IsInf(v, 0) }
	if name == "" {
		return fmt.Errorf("catalog: price in %s without a SKU name", region)
	}
	if (p.HasOnDemand && bad(p.OnDemand)) || (p.HasSpot && bad(p.Spot)) {
		return fmt.Errorf("catalog: price of %s in %s is not a non-negative number", name, region)
	}
	return nil
}

// index derives the region lists; a region is listed when some price or some
// SKU location mentions it, because only then can the catalog say anything
// about it. Price names and SKUs are both sorted by name, so a merge finds the
// priced SKUs; marks by position keep each region's list sorted for free.
func (c *Catalog) index() {
	marks := make(map[string][]bool, len(c.prices))
	marksOf := func(region string) []bool {
		m := marks[region]
		if m == nil {
			m = make([]bool, len(c.skus))
			marks[region] = m
		}
		return m
	}
	for region, rp := range c.prices {
		m := marksOf(region)
		for i, j := 0, 0; i < len(rp.names) && j < len(c.skus); {
			switch n, s := rp.names[i], c.skus[j].Name; {
			case n < s:
				i++
			case n > s:
				j++
			default:
				m[j] = true
				i++
				j++
			}
		}
	}
	for i, s := range c.skus {
		for region := range s.Locations {
			marksOf(region)[i] = true
		}
	}
	c.regions = make([]string, 0, len(marks))
	c.inRegion = make(map[string][]*SKU, len(marks))
	for region, m := range marks {
		c.regions = append(c.regions, region)
		n := 0
		for _, in := range m {
			if in {
				n++
			}
		}
		list := make([]*SKU, 0, n)
		for i, in := range m {
			if in {
				list = append(list, c.skus[i])
			}
		}
		c.inRegion[region] = list
	}
	sort.Strings(c.regions)
}

// Meta describes the catalog's sources.
func (c *Catalog) Meta() Meta { return c.meta }

// SKUs returns every SKU, sorted by name.
func (c *Catalog) SKUs() []*SKU { return c.skus }

// SKU looks a SKU up by its ARM name (e.g. Standard_D2s_v3).
func (c *Catalog) SKU(name string) (*SKU, bool) {
	s, ok := c.byName[name]
	return s, ok
}

// Regions returns the regions the catalog has prices or SKU locations for, sorted.
func (c *Catalog) Regions() []string { return c.regions }

// Region returns what the Locations API said about a region.
func (c *Catalog) Region(name string) (Region, bool) {
	r, ok := c.region[strings.ToLower(name)]
	return r, ok
}

// SKUsInRegion returns the SKUs known to be offered in region: those with a
// price there or a Resource SKUs listing for it. Sorted by name.
func (c *Catalog) SKUsInRegion(region string) []*SKU {
	return c.inRegion[strings.ToLower(region)]
}

// HasPrices reports whether the catalog has any price list for region.
func (c *Catalog) HasPrices(region string) bool {
	_, ok := c.prices[strings.ToLower(region)]
	return ok
}

// Zones returns the logical zones (e.g. "1", "2") in which sku is offered and not
// restricted in region. known is false when no Resource SKUs listing covered the
// SKU in that region: then the zones are not known, which is different from an
// empty list (offered regionally only, or restricted).
func (c *Catalog) Zones(region, sku string) (zones []string, known bool) {
	s, ok := c.byName[sku]
	if !ok {
		return nil, false
	}
	region = strings.ToLower(region)
	loc, ok := s.Locations[region]
	if !ok {
		return nil, false
	}
	return loc.AvailableZones(region), true
}

// Location returns the raw Resource SKUs listing of sku in region, if any.
func (c *Catalog) Location(region, sku string) (Location, bool) {
	s, ok := c.byName[sku]
	if !ok {
		return Location{}, false
	}
	loc, ok := s.Locations[strings.ToLower(region)]
	return loc, ok
}

// Data returns the catalog's content, e.g. to merge or re-encode it. The SKUs
// are shallow copies; their slices are shared with the catalog.
func (c *Catalog) Data() Data {
	d := Data{Meta: c.meta, Prices: make(map[string]map[string]Prices, len(c.prices))}
	for region, rp := range c.prices {
		d.Prices[region] = rp.toMap()
	}
	d.SKUs = make([]SKU, len(c.skus))
	for i, s := range c.skus {
		d.SKUs[i] = *s
	}
	for _, name := range sortedKeys(c.region) {
		d.Regions = append(d.Regions, c.region[name])
	}
	return d
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Currency is the ISO 4217 code of the catalog's prices: USD, unless a replace-mode override
// says otherwise.
func (c *Catalog) Currency() string {
	if c.meta.Currency == "" {
		return "USD"
	}
	return c.meta.Currency
}
