package catalog

import "sort"

// regionPrices is one region's price list as parallel slices sorted by SKU
// name. Slices rather than a map because tens of thousands of entries decode
// several times faster this way, and because sorted names let the region index
// merge them with the sorted SKU list instead of hashing each name.
type regionPrices struct {
	names []string
	vals  []Prices
}

func (r *regionPrices) get(name string) (Prices, bool) {
	if r == nil {
		return Prices{}, false
	}
	i := sort.SearchStrings(r.names, name)
	if i < len(r.names) && r.names[i] == name {
		return r.vals[i], true
	}
	return Prices{}, false
}

func (r *regionPrices) toMap() map[string]Prices {
	m := make(map[string]Prices, len(r.names))
	for i, n := range r.names {
		m[n] = r.vals[i]
	}
	return m
}

func regionPricesFromMap(m map[string]Prices) *regionPrices {
	r := &regionPrices{names: make([]string, 0, len(m)), vals: make([]Prices, 0, len(m))}
	for n := range m {
		r.names = append(r.names, n)
	}
	sort.Strings(r.names)
	for _, n := range r.names {
		r.vals = append(r.vals, m[n])
	}
	return r
}
