package source

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/refdata"
)

// Builder accumulates facts from any number of inputs. Where inputs overlap,
// later ones win, except that capabilities from Resource SKUs API listings always
// win over the snapshot's, because the snapshot is itself derived from older ones.
type Builder struct {
	skus    map[string]*skuAcc
	known   map[string]bool
	prices  map[string]map[string]*priceAcc
	regions map[string]catalog.Region
	sources []string
	// spotSnapshots maps the source commit of a spot snapshot to its date, for
	// the cross-check of the same snapshots, which carries no date of its own.
	spotSnapshots map[string]string
}

// skuAcc gathers one SKU across inputs. apiCaps keeps the capabilities each
// per-region Resource SKUs listing reported, to pick SKU-wide ones at the end.
type skuAcc struct {
	sku     catalog.SKU
	apiCaps map[string][]catalog.Capability
}

type priceAcc struct {
	onDemand, spot       float64
	hasOnDemand, hasSpot bool
	odDate, spotDate     string
	odSource, spotSource string
}

func NewBuilder() *Builder {
	return &Builder{
		skus:    map[string]*skuAcc{},
		known:   map[string]bool{},
		prices:  map[string]map[string]*priceAcc{},
		regions: map[string]catalog.Region{},

		spotSnapshots: map[string]string{},
	}
}

// Files of the reference snapshot directory (reference/catalog; each may be stored as name.gz).
const (
	SnapshotSKUs      = "vm_skus.json"
	SnapshotPrices    = "prices_ondemand_by_region.json"
	SnapshotSpot      = "prices_spot_by_region.json"
	SnapshotCrossChk  = "ondemand_crosscheck_eu_2026-08.json"
	SnapshotLocations = "locations.json"
	SnapshotKnownSKUs = "known_skus.yaml"
	// SnapshotResourceSKUs is a Resource SKUs API listing ({"value": [...]}) that
	// make update-catalog writes; it is optional, and its capabilities win over vm_skus.json's.
	SnapshotResourceSKUs = "resource_skus.json"
)

// ReadSnapshotDir reads the reference snapshot directory. The spot snapshot
// comes before the on-demand cross-check, which takes its date from it.
func (b *Builder) ReadSnapshotDir(dir string) error {
	for _, f := range []string{SnapshotSKUs, SnapshotPrices, SnapshotSpot, SnapshotCrossChk, SnapshotLocations, SnapshotKnownSKUs} {
		if err := b.ReadFile(filepath.Join(dir, f)); err != nil {
			return err
		}
	}
	p := filepath.Join(dir, SnapshotResourceSKUs)
	if _, err := refdata.Stored(p); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return b.ReadFile(p)
}

// ReadFile reads one input, recognising its format from its content.
func (b *Builder) ReadFile(path string) error {
	data, err := refdata.ReadFile(path)
	if err != nil {
		return err
	}
	return b.Read(filepath.Base(path), data)
}

// Read reads one input; name is only used in messages and provenance.
func (b *Builder) Read(name string, data []byte) error {
	var err error
	switch kind := detect(name, data); kind {
	case kindKnownSKUs:
		err = b.readKnownSKUs(name, data)
	case kindSnapshotSKUs:
		err = b.readSnapshotSKUs(name, data)
	case kindResourceSKUs:
		err = b.readResourceSKUs(name, data)
	case kindRetailPrices:
		err = b.readRetailPrices(name, data)
	case kindStaticPrices:
		err = b.readStaticPrices(name, data)
	case kindStaticSpotPrices:
		err = b.readStaticSpotPrices(name, data)
	case kindPriceCorrections:
		err = b.readPriceCorrections(name, data)
	case kindLocations:
		err = b.readLocations(name, data)
	default:
		err = fmt.Errorf("unrecognised format")
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

func (b *Builder) note(format string, args ...any) {
	b.sources = append(b.sources, fmt.Sprintf(format, args...))
}

func (b *Builder) acc(name string) *skuAcc {
	a := b.skus[name]
	if a == nil {
		a = &skuAcc{sku: catalog.SKU{Name: name}}
		b.skus[name] = a
	}
	return a
}

// setPrice records a price observed on date (RFC 3339 or YYYY-MM-DD), labelled
// with source (see catalog.Prices).
func (b *Builder) setPrice(region, sku string, spot bool, price float64, date, source string) {
	region = strings.ToLower(region)
	m := b.prices[region]
	if m == nil {
		m = map[string]*priceAcc{}
		b.prices[region] = m
	}
	p := m[sku]
	if p == nil {
		p = &priceAcc{}
		m[sku] = p
	}
	// The newest meter wins; equal dates keep the lower price so that the
	// outcome never depends on item order.
	newer := func(has bool, cur float64, curDate string) bool {
		return !has || date > curDate || (date == curDate && price < cur)
	}
	if spot {
		if newer(p.hasSpot, p.spot, p.spotDate) {
			p.spot, p.hasSpot, p.spotDate, p.spotSource = price, true, date, source
		}
	} else if newer(p.hasOnDemand, p.onDemand, p.odDate) {
		p.onDemand, p.hasOnDemand, p.odDate, p.odSource = price, true, date, source
	}
}

// Data assembles the catalog content.
func (b *Builder) Data() (catalog.Data, error) {
	d := catalog.Data{Meta: catalog.Meta{Sources: append([]string(nil), b.sources...)}, Prices: map[string]map[string]catalog.Prices{}}
	for _, name := range sortedKeys(b.skus) {
		a := b.skus[name]
		s := a.sku
		if len(a.apiCaps) > 0 {
			if err := applyAPICapabilities(&s, a.apiCaps); err != nil {
				return catalog.Data{}, err
			}
		}
		if b.known[name] {
			s.KnownToKarpenter = true
		}
		if s.Size == "" {
			s.Size = catalog.SizeFromName(s.Name)
		}
		d.SKUs = append(d.SKUs, s)
	}
	for _, name := range sortedKeys(b.regions) {
		d.Regions = append(d.Regions, b.regions[name])
	}
	for region, m := range b.prices {
		out := make(map[string]catalog.Prices, len(m))
		for sku, p := range m {
			out[sku] = catalog.Prices{OnDemand: p.onDemand, Spot: p.spot, HasOnDemand: p.hasOnDemand, HasSpot: p.hasSpot,
				OnDemandSource: p.odSource, SpotSource: p.spotSource}
		}
		d.Prices[region] = out
	}
	return d, nil
}

// applyAPICapabilities makes the capabilities most regions agree on the
// SKU-wide ones and keeps the others as per-region replacements, so that a
// region-specific value (UltraSSDAvailable, typically) is neither lost nor spread.
func applyAPICapabilities(s *catalog.SKU, perRegion map[string][]catalog.Capability) error {
	count := map[string]int{}
	first := map[string]string{}
	for _, region := range sortedKeys(perRegion) {
		k := capsKey(perRegion[region])
		count[k]++
		if _, ok := first[k]; !ok {
			first[k] = region
		}
	}
	var best string
	for k, n := range count {
		if best == "" || n > count[best] || (n == count[best] && first[k] < first[best]) {
			best = k
		}
	}
	caps := perRegion[first[best]]
	derived := catalog.SKU{Name: s.Name, Size: s.Size, Capabilities: caps}
	if derived.Size == "" {
		derived.Size = catalog.SizeFromName(s.Name)
	}
	if err := catalog.NormaliseFromCapabilities(&derived); err != nil {
		return err
	}
	// Documentation-only facts from an older snapshot survive the refresh.
	if derived.GPUModel == "" {
		derived.GPUModel = s.GPUModel
	}
	if derived.GPUFraction == "" {
		derived.GPUFraction = s.GPUFraction
	}
	if !derived.GPUCount.Known {
		derived.GPUCount = s.GPUCount
	}
	derived.Tier, derived.Family, derived.KnownToKarpenter = s.Tier, s.Family, s.KnownToKarpenter
	derived.Source, derived.Locations = s.Source, s.Locations
	for region, c := range perRegion {
		if region == "" || capsKey(c) == best {
			continue
		}
		if derived.Locations == nil {
			derived.Locations = map[string]catalog.Location{}
		}
		loc := derived.Locations[region]
		loc.Capabilities = c
		derived.Locations[region] = loc
	}
	*s = derived
	return nil
}

func capsKey(caps []catalog.Capability) string {
	var sb strings.Builder
	for _, c := range caps {
		sb.WriteString(c.Name)
		sb.WriteByte(0)
		sb.WriteString(c.Value)
		sb.WriteByte(0)
	}
	return sb.String()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
