package catalog

import (
	"fmt"
)

type decoder struct {
	r     reader
	table []string
}

func decodeData(raw []byte) (Data, error) {
	if len(raw) < len(magic) || string(raw[:len(magic)]) != magic {
		return Data{}, fmt.Errorf("not a catalog artefact (bad magic)")
	}
	d := &decoder{r: reader{buf: raw[len(magic):]}}
	n := d.r.count()
	d.table = make([]string, n)
	for i := range d.table {
		d.table[i] = string(d.r.bytes(d.r.uvarint()))
	}

	var out Data
	for i, n := 0, d.r.count(); i < n; i++ {
		out.Meta.Sources = append(out.Meta.Sources, d.str())
	}
	for i, n := 0, d.r.count(); i < n; i++ {
		r := Region{Name: d.str(), DisplayName: d.str(), ZonesKnown: d.r.bool()}
		r.Zones = d.strList()
		out.Regions = append(out.Regions, r)
	}
	nSKU := d.r.count()
	out.SKUs = make([]SKU, nSKU)
	for i := range out.SKUs {
		d.sku(&out.SKUs[i])
	}
	nRegions := d.r.count()
	out.Prices = make(map[string]map[string]Prices, nRegions)
	for i := 0; i < nRegions; i++ {
		region := d.str()
		n := d.r.count()
		m := make(map[string]Prices, n)
		var id uint64
		for j := 0; j < n; j++ {
			id += d.r.uvarint()
			flags := d.r.uvarint()
			var p Prices
			if flags&1 != 0 {
				p.HasOnDemand, p.OnDemand = true, d.r.float()
			}
			if flags&2 != 0 {
				p.HasSpot, p.Spot = true, d.r.float()
			}
			m[d.index(id)] = p
		}
		out.Prices[region] = m
	}
	if d.r.err == nil && len(d.r.buf) != 0 {
		d.r.fail(fmt.Errorf("%d trailing bytes", len(d.r.buf)))
	}
	return out, d.r.err
}

func (d *decoder) index(id uint64) string {
	if id >= uint64(len(d.table)) {
		d.r.fail(fmt.Errorf("string index %d out of range", id))
		return ""
	}
	return d.table[id]
}

func (d *decoder) str() string { return d.index(d.r.uvarint()) }

func (d *decoder) strList() []string {
	n := d.r.count()
	if n == 0 {
		return nil
	}
	list := make([]string, n-1)
	for i := range list {
		list[i] = d.str()
	}
	return list
}

func (d *decoder) caps() []Capability {
	n := d.r.count()
	if n == 0 {
		return nil
	}
	caps := make([]Capability, n-1)
	for i := range caps {
		caps[i] = Capability{Name: d.str(), Value: d.str()}
	}
	return caps
}

func (d *decoder) sku(s *SKU) {
	for _, dst := range []*string{&s.Name, &s.Tier, &s.Size, &s.Family, &s.Arch, &s.GPUFraction, &s.GPUModel,
		&s.ConfidentialComputingType, &s.ParentSize, &s.RetirementDate, &s.Source} {
		*dst = d.str()
	}
	s.VCPUs = int64(d.r.uvarint())
	s.MemoryGiB = d.r.float()
	s.KnownToKarpenter = d.r.bool()
	known := d.r.uvarint()
	for i, p := range skuInts(s) {
		if known&(1<<i) != 0 {
			*p = IntOf(d.r.varint())
		}
	}
	tri := d.r.uvarint()
	for i, t := range skuTristates(s) {
		*t = Tristate((tri >> (2 * i)) & 3)
		if *t > Yes {
			d.r.fail(fmt.Errorf("bad tristate in %s", s.Name))
		}
	}
	s.HyperVGenerations = d.strList()
	s.EphemeralOSDiskPlacements = d.strList()
	s.Capabilities = d.caps()
	n := d.r.count()
	if n == 0 {
		return
	}
	s.Locations = make(map[string]Location, n)
	for i := 0; i < n; i++ {
		region := d.str()
		l := Location{Zones: d.strList(), Capabilities: d.caps()}
		for j, m := 0, d.r.count(); j < m; j++ {
			l.ZoneDetails = append(l.ZoneDetails, ZoneDetail{Zones: d.strList(), Capabilities: d.caps()})
		}
		for j, m := 0, d.r.count(); j < m; j++ {
			r := Restriction{Type: d.str(), ReasonCode: d.str()}
			r.Values = d.strList()
			r.Zones = d.strList()
			l.Restrictions = append(l.Restrictions, r)
		}
		s.Locations[region] = l
	}
}
