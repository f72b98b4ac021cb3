package catalog

import (
	"compress/gzip"
	"io"
	"sort"
)

// The artefact is gzip over a flat binary stream: a magic header, one sorted,
// de-duplicated string table, then regions, SKUs and prices that refer to
// strings by index. Integers are varints; prices and memory sizes are stored as
// integer millionths when that is exact (every list price is), else as raw bits.
// Sorting plus the shared table is what makes it small: a SKU record is mostly
// one-byte or two-byte indexes into strings that gzip has already seen.
const magic = "KPAZCAT\x02"

// Encode writes c in the compact format.
func (c *Catalog) Encode(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	e := newEncoder(c)
	if _, err := zw.Write(e.bytes()); err != nil {
		return err
	}
	return zw.Close()
}

type encoder struct {
	c     *Catalog
	w     writer
	table []string
	strs  map[string]uint64
}

func newEncoder(c *Catalog) *encoder {
	e := &encoder{c: c, strs: map[string]uint64{}}
	e.table = e.collectStrings()
	e.w.raw([]byte(magic))
	e.w.uvarint(uint64(len(e.table)))
	for i, s := range e.table {
		e.strs[s] = uint64(i)
		e.w.uvarint(uint64(len(s)))
		e.w.raw([]byte(s))
	}
	return e
}

func (e *encoder) collectStrings() []string {
	set := map[string]bool{"": true}
	add := func(ss ...string) {
		for _, s := range ss {
			set[s] = true
		}
	}
	addCaps := func(caps []Capability) {
		for _, cp := range caps {
			add(cp.Name, cp.Value)
		}
	}
	add(e.c.meta.Sources...)
	for _, r := range e.c.region {
		add(r.Name, r.DisplayName)
		add(r.Zones...)
	}
	for _, s := range e.c.skus {
		add(s.Name, s.Tier, s.Size, s.Family, s.Arch, s.GPUFraction, s.GPUModel, s.ConfidentialComputingType,
			s.ParentSize, s.RetirementDate, s.Source)
		add(s.HyperVGenerations...)
		add(s.EphemeralOSDiskPlacements...)
		addCaps(s.Capabilities)
		for region, l := range s.Locations {
			add(region)
			add(l.Zones...)
			addCaps(l.Capabilities)
			for _, zd := range l.ZoneDetails {
				add(zd.Zones...)
				addCaps(zd.Capabilities)
			}
			for _, r := range l.Restrictions {
				add(r.Type, r.ReasonCode)
				add(r.Values...)
				add(r.Zones...)
			}
		}
	}
	for region, rp := range e.c.prices {
		add(region)
		add(rp.names...)
		for _, p := range rp.vals {
			add(p.OnDemandSource, p.SpotSource)
		}
	}
	table := make([]string, 0, len(set))
	for s := range set {
		table = append(table, s)
	}
	sort.Strings(table)
	return table
}

func (e *encoder) str(s string) { e.w.uvarint(e.strs[s]) }

func (e *encoder) strList(list []string) {
	// 0 encodes nil so that "unknown" survives the round trip distinct from "empty".
	if list == nil {
		e.w.uvarint(0)
		return
	}
	e.w.uvarint(uint64(len(list)) + 1)
	for _, s := range list {
		e.str(s)
	}
}

func (e *encoder) caps(caps []Capability) {
	if caps == nil {
		e.w.uvarint(0)
		return
	}
	e.w.uvarint(uint64(len(caps)) + 1)
	for _, cp := range caps {
		e.str(cp.Name)
		e.str(cp.Value)
	}
}

func (e *encoder) bytes() []byte {
	c := e.c
	e.w.uvarint(uint64(len(c.meta.Sources)))
	for _, s := range c.meta.Sources {
		e.str(s)
	}

	regionNames := sortedKeys(c.region)
	e.w.uvarint(uint64(len(regionNames)))
	for _, name := range regionNames {
		r := c.region[name]
		e.str(r.Name)
		e.str(r.DisplayName)
		e.w.bool(r.ZonesKnown)
		e.strList(r.Zones)
	}

	e.w.uvarint(uint64(len(c.skus)))
	for _, s := range c.skus {
		e.sku(s)
	}

	priceRegions := sortedKeys(c.prices)
	e.w.uvarint(uint64(len(priceRegions)))
	for _, region := range priceRegions {
		rp := c.prices[region]
		e.str(region)
		e.w.uvarint(uint64(len(rp.names)))
		// Names are sorted, and so is the string table, so their indexes rise:
		// deltas are small and compress well.
		var prev uint64
		for i, name := range rp.names {
			id, p := e.strs[name], rp.vals[i]
			e.w.uvarint(id - prev)
			prev = id
			var flags uint64
			if p.HasOnDemand {
				flags |= 1
			}
			if p.HasSpot {
				flags |= 2
			}
			e.w.uvarint(flags)
			// Each price is followed by its source, an index into the string
			// table: nearly all prices of a region share one, so gzip makes it free.
			if p.HasOnDemand {
				e.w.float(p.OnDemand)
				e.str(p.OnDemandSource)
			}
			if p.HasSpot {
				e.w.float(p.Spot)
				e.str(p.SpotSource)
			}
		}
	}
	return e.w.buf
}

func (e *encoder) sku(s *SKU) {
	for _, v := range []string{s.Name, s.Tier, s.Size, s.Family, s.Arch, s.GPUFraction, s.GPUModel,
		s.ConfidentialComputingType, s.ParentSize, s.RetirementDate, s.Source} {
		e.str(v)
	}
	e.w.uvarint(uint64(s.VCPUs))
	e.w.float(s.MemoryGiB)
	e.w.bool(s.KnownToKarpenter)

	ints := skuInts(s)
	var known uint64
	for i, p := range ints {
		if p.Known {
			known |= 1 << i
		}
	}
	e.w.uvarint(known)
	for _, p := range ints {
		if p.Known {
			e.w.varint(p.Value)
		}
	}
	var tri uint64
	for i, t := range skuTristates(s) {
		tri |= uint64(*t) << (2 * i)
	}
	e.w.uvarint(tri)

	e.strList(s.HyperVGenerations)
	e.strList(s.EphemeralOSDiskPlacements)
	e.caps(s.Capabilities)

	regions := sortedKeys(s.Locations)
	e.w.uvarint(uint64(len(regions)))
	for _, region := range regions {
		l := s.Locations[region]
		e.str(region)
		e.strList(l.Zones)
		e.caps(l.Capabilities)
		e.w.uvarint(uint64(len(l.ZoneDetails)))
		for _, zd := range l.ZoneDetails {
			e.strList(zd.Zones)
			e.caps(zd.Capabilities)
		}
		e.w.uvarint(uint64(len(l.Restrictions)))
		for _, r := range l.Restrictions {
			e.str(r.Type)
			e.str(r.ReasonCode)
			e.strList(r.Values)
			e.strList(r.Zones)
		}
	}
}

// skuInts and skuTristates fix the field order of the packed sections; the
// decoder uses the same functions so the two cannot drift apart.
func skuInts(s *SKU) []*OptInt {
	return []*OptInt{&s.VCPUsAvailable, &s.VCPUsPerCore, &s.GPUCount, &s.CachedDiskBytes, &s.ResourceDiskMiB,
		&s.NVMeDiskMiB, &s.MaxDataDisks, &s.MaxNetworkInterfaces}
}

func skuTristates(s *SKU) []*Tristate {
	return []*Tristate{&s.AcceleratedNetworking, &s.PremiumIO, &s.EphemeralOSDisk, &s.UltraSSD, &s.EncryptionAtHost,
		&s.Confidential, &s.TrustedLaunchDisabled, &s.LowPriorityCapable}
}
