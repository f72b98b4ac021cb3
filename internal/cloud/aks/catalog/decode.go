package catalog

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
)

// maxArtefactSize bounds the size hint taken from a (possibly corrupt) trailer.
const maxArtefactSize = 64 << 20

// Decode reads a catalog written by Encode.
func Decode(r io.Reader) (*Catalog, error) {
	compressed, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	// gzip's trailer states the uncompressed size; reserving it up front saves
	// the repeated growing and copying of reading into an empty buffer.
	var out bytes.Buffer
	if n := len(compressed); n >= 4 {
		if size := binary.LittleEndian.Uint32(compressed[n-4:]); size < maxArtefactSize {
			out.Grow(int(size) + bytes.MinRead)
		}
	}
	if _, err := out.ReadFrom(zr); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	raw := out.Bytes()
	d, prices, err := decodeData(raw)
	if err != nil {
		return nil, fmt.Errorf("catalog: corrupt artefact: %w", err)
	}
	return build(d, prices)
}

type decoder struct {
	r     reader
	table []string
}

func decodeData(raw []byte) (Data, map[string]*regionPrices, error) {
	if len(raw) < len(magic) || string(raw[:len(magic)]) != magic {
		return Data{}, nil, fmt.Errorf("not a catalog artefact (bad magic)")
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
	prices := make(map[string]*regionPrices, nRegions)
	for i := 0; i < nRegions; i++ {
		region := d.str()
		n := d.r.count()
		rp := &regionPrices{names: make([]string, n), vals: make([]Prices, n)}
		var id uint64
		for j := 0; j < n; j++ {
			delta := d.r.uvarint()
			if j > 0 && delta == 0 {
				d.r.fail(fmt.Errorf("price names of %s not strictly sorted", region))
			}
			id += delta
			rp.names[j] = d.index(id)
			flags := d.r.uvarint()
			if flags&1 != 0 {
				rp.vals[j].HasOnDemand, rp.vals[j].OnDemand = true, d.r.float()
				rp.vals[j].OnDemandSource = d.str()
			}
			if flags&2 != 0 {
				rp.vals[j].HasSpot, rp.vals[j].Spot = true, d.r.float()
				rp.vals[j].SpotSource = d.str()
			}
		}
		if _, dup := prices[region]; dup || region != strings.ToLower(region) {
			d.r.fail(fmt.Errorf("bad price region %q", region))
		}
		prices[region] = rp
	}
	if d.r.err == nil && len(d.r.buf) != 0 {
		d.r.fail(fmt.Errorf("%d trailing bytes", len(d.r.buf)))
	}
	return out, prices, d.r.err
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
