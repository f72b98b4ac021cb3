package source

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/reftest"
)

func buildFrom(t *testing.T, files ...string) *catalog.Catalog {
	t.Helper()
	b := NewBuilder()
	for _, f := range files {
		if err := b.ReadFile(filepath.Join("testdata", f)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := b.Data()
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestResourceSKUsRecordedResponse reads a hand-written Resource SKUs list page:
// one size listed in three regions with region-specific capabilities, zones,
// zone details and restrictions, a GPU size, and a non-VM entry.
func TestResourceSKUsRecordedResponse(t *testing.T) {
	c := buildFrom(t, "resource_skus_page.json")
	if len(c.SKUs()) != 2 {
		t.Fatalf("want the two VM sizes only, got %d SKUs", len(c.SKUs()))
	}
	s, ok := c.SKU("Standard_D2s_v3")
	if !ok {
		t.Fatal("Standard_D2s_v3 missing")
	}
	if s.VCPUs != 2 || s.MemoryGiB != 8 || s.Arch != "amd64" || s.Family != "standardDSv3Family" || s.Source != "resource-skus-api" {
		t.Errorf("facts: %+v", s)
	}
	// Two regions agree on LowPriorityCapable=True without UltraSSDAvailable;
	// westus differs and keeps its own list.
	if s.LowPriorityCapable != catalog.Yes || s.UltraSSD != catalog.Unknown {
		t.Errorf("SKU-wide capabilities must be the majority's: low priority %v, ultra %v", s.LowPriorityCapable, s.UltraSSD)
	}
	if v, _ := capability(s.CapabilitiesIn("westus"), "LowPriorityCapable"); v != "False" {
		t.Errorf("westus capabilities not kept, LowPriorityCapable=%q", v)
	}
	if s.Locations["eastus"].Capabilities != nil {
		t.Error("eastus agrees with the majority and needs no capability list of its own")
	}
	zones, known := c.Zones("eastus", s.Name)
	if !known || !cmp.Equal(zones, []string{"1", "2"}) {
		t.Errorf("eastus zones %v known=%v, want [1 2] (3 is restricted)", zones, known)
	}
	if zones, known := c.Zones("westus", s.Name); !known || len(zones) != 0 {
		t.Errorf("westus is regional only, got %v %v", zones, known)
	}
	if zones, known := c.Zones("northeurope", s.Name); !known || len(zones) != 0 || !s.Locations["northeurope"].LocationRestricted("northeurope") {
		t.Errorf("northeurope is restricted, got %v %v", zones, known)
	}
	wantDetails := []catalog.ZoneDetail{{Zones: []string{"2"}, Capabilities: []catalog.Capability{{Name: "UltraSSDAvailable", Value: "True"}}}}
	if diff := cmp.Diff(wantDetails, s.Locations["eastus"].ZoneDetails); diff != "" {
		t.Errorf("zone details: %s", diff)
	}

	gpu, _ := c.SKU("Standard_NC6s_v3")
	if n, ok := gpu.GPUCount.Get(); !ok || n != 1 || gpu.VCPUs != 6 {
		t.Errorf("GPU size: gpus %d/%v, vcpus %d (a duplicate capability must not win)", n, ok, gpu.VCPUs)
	}
}

// TestRetailPricesRecordedResponse reads a hand-written Retail Prices API page
// with every kind of item the provider must ignore.
func TestRetailPricesRecordedResponse(t *testing.T) {
	c := buildFrom(t, "retail_prices_page.json")
	cases := []struct {
		region    string
		ct        catalog.CapacityType
		price     float64
		estimated bool
		ok        bool
	}{
		{"eastus", catalog.OnDemand, 0.096, false, true}, // not Windows, not Reservation, not DevTest
		{"eastus", catalog.Spot, 0.0192, false, true},    // the newer of two spot meters; Low Priority ignored
		{"westeurope", catalog.OnDemand, 0.12, false, true},
		// No spot meter for westeurope: estimated from eastus's ratio (0.0192/0.096 = 0.2).
		{"westeurope", catalog.Spot, 0.024, true, true},
	}
	for _, tc := range cases {
		p, est, ok := c.Price(tc.region, "Standard_D2s_v3", tc.ct)
		if p != tc.price || est != tc.estimated || ok != tc.ok {
			t.Errorf("%s %s: %v %v %v, want %v %v %v", tc.region, tc.ct, p, est, ok, tc.price, tc.estimated, tc.ok)
		}
	}
	if len(c.PriceList("eastus")) != 1 {
		t.Errorf("storage meters must not become prices: %v", c.PriceList("eastus"))
	}
}

func TestLocationsRecordedResponse(t *testing.T) {
	c := buildFrom(t, "locations_list.json", "resource_skus_page.json")
	want := catalog.Region{Name: "eastus", DisplayName: "East US", Zones: []string{"1", "2", "3"}, ZonesKnown: true}
	if r, _ := c.Region("eastus"); !cmp.Equal(r, want) {
		t.Errorf("eastus: %+v", r)
	}
	if r, ok := c.Region("westcentralus"); !ok || !r.ZonesKnown || len(r.Zones) != 0 {
		t.Errorf("westcentralus has no zones, and that is known: %+v", r)
	}
	if _, ok := c.Region("unitedstates"); ok {
		t.Error("logical regions must be skipped")
	}
}

func TestAPIListingsWinOverSnapshot(t *testing.T) {
	b := NewBuilder()
	snapshot := `[{"name": "Standard_D2s_v3", "size": "D2s_v3", "vcpus": 2, "memory_gib": 8, "gpu_model": "none",
	  "premium_io": false, "known_to_karpenter": true, "source": "snapshot",
	  "capabilities": {"vCPUs": "2", "MemoryGB": "8", "PremiumIO": false}, "locations": {}}]`
	if err := b.ReadFile(filepath.Join("testdata", "resource_skus_page.json")); err != nil {
		t.Fatal(err)
	}
	if err := b.Read("vm_skus.json", []byte(snapshot)); err != nil {
		t.Fatal(err)
	}
	d, err := b.Data()
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.New(d)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := c.SKU("Standard_D2s_v3")
	if s.PremiumIO != catalog.Yes || s.GPUModel != "none" || !s.KnownToKarpenter || len(s.Locations) != 3 {
		t.Errorf("merged SKU: %+v", s)
	}
}

func TestUnrecognisedInputIsAnError(t *testing.T) {
	b := NewBuilder()
	for name, doc := range map[string]string{
		"empty.json":   ``,
		"object.json":  `{"foo": 1}`,
		"numbers.json": `[1, 2]`,
		"broken.json":  `{"value": [`,
	} {
		if err := b.Read(name, []byte(doc)); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	if err := b.ReadFile(filepath.Join(t.TempDir(), "missing.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func capability(caps []catalog.Capability, name string) (string, bool) {
	for _, c := range caps {
		if c.Name == name {
			return c.Value, true
		}
	}
	return "", false
}

// TestSnapshotFactsMatchCapabilities: for every size with raw capabilities, the
// snapshot's normalised facts are what NormaliseFromCapabilities derives, so
// facts read from the snapshot and facts read from a live API listing agree.
// GPU counts the API omits and documentation supplies are the one exception.
func TestSnapshotFactsMatchCapabilities(t *testing.T) {
	b := NewBuilder()
	if err := b.ReadFile(reftest.Dir(t, "catalog", SnapshotSKUs)); err != nil {
		t.Fatal(err)
	}
	d, err := b.Data()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, s := range d.SKUs {
		if !s.HasCapabilities() {
			continue
		}
		derived := catalog.SKU{Name: s.Name, Size: s.Size, Capabilities: s.Capabilities}
		if err := catalog.NormaliseFromCapabilities(&derived); err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		if !derived.GPUCount.Known {
			derived.GPUCount = s.GPUCount
		}
		derived.Tier, derived.Family, derived.GPUModel, derived.GPUFraction = s.Tier, s.Family, s.GPUModel, s.GPUFraction
		derived.KnownToKarpenter, derived.Source, derived.Locations = s.KnownToKarpenter, s.Source, s.Locations
		if diff := cmp.Diff(s, derived); diff != "" {
			t.Errorf("%s (-snapshot +derived):\n%s", s.Name, diff)
		}
		checked++
	}
	if checked < 1500 {
		t.Fatalf("only %d sizes with capabilities checked", checked)
	}
}
