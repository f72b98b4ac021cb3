package catalog

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testData is a small hand-made catalog covering each "known / unknown / none"
// distinction the API makes.
func testData() Data {
	return Data{
		Meta: Meta{Sources: []string{"hand-written test data"}},
		SKUs: []SKU{
			{
				Name: "Standard_D2s_v3", Tier: "Standard", Size: "D2s_v3", Family: "standardDSv3Family",
				VCPUs: 2, MemoryGiB: 8, Arch: "amd64", GPUCount: IntOf(0), PremiumIO: Yes, UltraSSD: Unknown,
				Confidential: No, HyperVGenerations: []string{"V1", "V2"}, KnownToKarpenter: true, Source: "test",
				Capabilities: []Capability{{"MemoryGB", "8"}, {"vCPUs", "2"}},
				Locations: map[string]Location{
					"eastus": {
						Zones:        []string{"1", "2", "3"},
						Restrictions: []Restriction{{Type: RestrictionZone, Values: []string{"eastus"}, Zones: []string{"3"}, ReasonCode: "NotAvailableForSubscription"}},
						ZoneDetails:  []ZoneDetail{{Zones: []string{"2"}, Capabilities: []Capability{{"UltraSSDAvailable", "True"}}}},
					},
					"westus":  {Zones: []string{}, Capabilities: []Capability{{"MemoryGB", "8"}, {"UltraSSDAvailable", "True"}, {"vCPUs", "2"}}},
					"brazils": {Zones: []string{"1"}, Restrictions: []Restriction{{Type: RestrictionLocation, Values: []string{"brazils"}}}},
				},
			},
			{Name: "Standard_A10", Size: "A10", VCPUs: 8, MemoryGiB: 56, Source: "docs"},
		},
		Regions: []Region{{Name: "eastus", DisplayName: "East US", Zones: []string{"1", "2", "3"}, ZonesKnown: true}},
		Prices: map[string]map[string]Prices{
			"eastus": {
				"Standard_D2s_v3": {OnDemand: 0.096, HasOnDemand: true},
				"Standard_A10":    {OnDemand: 0.78, HasOnDemand: true, Spot: 0.1234567891, HasSpot: true},
				"Dsv3_Type1":      {OnDemand: 6.6, HasOnDemand: true},
			},
			"westus": {"Standard_D2s_v3": {Spot: 0.02, HasSpot: true}},
		},
	}
}

func mustNew(t testing.TB, d Data) *Catalog {
	t.Helper()
	c, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLookups(t *testing.T) {
	c := mustNew(t, testData())
	if got := len(c.SKUs()); got != 2 || c.SKUs()[0].Name != "Standard_A10" {
		t.Fatalf("SKUs not sorted by name: %v", c.SKUs())
	}
	if _, ok := c.SKU("Standard_D4s_v3"); ok {
		t.Error("found a SKU that is not there")
	}
	if diff := cmp.Diff([]string{"brazils", "eastus", "westus"}, c.Regions()); diff != "" {
		t.Errorf("regions: %s", diff)
	}
	var names []string
	for _, s := range c.SKUsInRegion("EastUS") {
		names = append(names, s.Name)
	}
	if diff := cmp.Diff([]string{"Standard_A10", "Standard_D2s_v3"}, names); diff != "" {
		t.Errorf("SKUs in eastus (price-only names like Dsv3_Type1 are not SKUs): %s", diff)
	}
	if r, ok := c.Region("eastus"); !ok || !r.ZonesKnown || len(r.Zones) != 3 {
		t.Errorf("region eastus: %+v %v", r, ok)
	}
	if _, ok := c.Region("westus"); ok {
		t.Error("westus has no Locations API data and must not claim any")
	}
}

func TestZonesDistinguishUnknownFromNone(t *testing.T) {
	c := mustNew(t, testData())
	cases := []struct {
		region, sku string
		zones       []string
		known       bool
	}{
		{"eastus", "Standard_D2s_v3", []string{"1", "2"}, true}, // zone 3 restricted
		{"westus", "Standard_D2s_v3", []string{}, true},         // regional only
		{"brazils", "Standard_D2s_v3", []string{}, true},        // whole region restricted
		{"northeurope", "Standard_D2s_v3", nil, false},          // no listing: not known
		{"eastus", "Standard_A10", nil, false},                  // priced but never listed
		{"eastus", "Standard_Nope", nil, false},
	}
	for _, tc := range cases {
		zones, known := c.Zones(tc.region, tc.sku)
		if known != tc.known || !cmp.Equal(zones, tc.zones) {
			t.Errorf("Zones(%s, %s) = %v, %v; want %v, %v", tc.region, tc.sku, zones, known, tc.zones, tc.known)
		}
	}
	s, _ := c.SKU("Standard_D2s_v3")
	if v, _ := lookupCapability(s.CapabilitiesIn("westus"), "ultrassdavailable"); v != "True" {
		t.Error("per-region capabilities not used for westus")
	}
	if _, ok := lookupCapability(s.CapabilitiesIn("eastus"), "UltraSSDAvailable"); ok {
		t.Error("eastus must fall back to the SKU-wide capabilities")
	}
}

func TestPriceMarksSpotEstimates(t *testing.T) {
	c := mustNew(t, testData())
	cases := []struct {
		region, sku string
		ct          CapacityType
		price       float64
		estimated   bool
		ok          bool
	}{
		{"eastus", "Standard_D2s_v3", OnDemand, 0.096, false, true},
		// No spot price: estimated from the only observed ratio, Standard_A10's
		// (0.1234567891/0.78 in eastus), as no size of its family has one.
		{"eastus", "Standard_D2s_v3", Spot, 0.015195, true, true},
		{"eastus", "Standard_A10", Spot, 0.1234567891, false, true},
		{"westus", "Standard_D2s_v3", Spot, 0.02, false, true},
		{"westus", "Standard_D2s_v3", OnDemand, 0, false, false},
		{"eastus", "Standard_Nope", OnDemand, 0, false, false},
		{"mars", "Standard_D2s_v3", OnDemand, 0, false, false},
	}
	for _, tc := range cases {
		p, est, ok := c.Price(tc.region, tc.sku, tc.ct)
		if p != tc.price || est != tc.estimated || ok != tc.ok {
			t.Errorf("Price(%s, %s, %s) = %v, %v, %v; want %v, %v, %v", tc.region, tc.sku, tc.ct, p, est, ok, tc.price, tc.estimated, tc.ok)
		}
	}
}

func TestNewRejectsInvalidData(t *testing.T) {
	cases := map[string]func(*Data){
		"duplicate SKU":  func(d *Data) { d.SKUs = append(d.SKUs, d.SKUs[0]) },
		"no vCPUs":       func(d *Data) { d.SKUs[0].VCPUs = 0 },
		"no memory":      func(d *Data) { d.SKUs[1].MemoryGiB = 0 },
		"unnamed SKU":    func(d *Data) { d.SKUs[0].Name = "" },
		"negative price": func(d *Data) { d.Prices["eastus"]["Standard_A10"] = Prices{OnDemand: -1, HasOnDemand: true} },
		"unnamed region": func(d *Data) { d.Regions = append(d.Regions, Region{}) },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			d := testData()
			mutate(&d)
			if _, err := New(d); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

// TestEncodeDecodeRoundTrip checks that everything, including nil-versus-empty
// and non-decimal floats, survives the compact format.
func TestEncodeDecodeRoundTrip(t *testing.T) {
	for name, c := range map[string]*Catalog{"hand-made": mustNew(t, testData()), "embedded": Default()} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := c.Encode(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.Data(), back.Data()); diff != "" {
				t.Errorf("round trip changed the catalog:\n%s", diff)
			}
		})
	}
}

func TestDecodeRejectsCorruptInput(t *testing.T) {
	var buf bytes.Buffer
	if err := mustNew(t, testData()).Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(bytes.NewReader([]byte("not gzip"))); err == nil {
		t.Error("accepted non-gzip input")
	}
	good := buf.Bytes()
	if _, err := Decode(bytes.NewReader(good[:len(good)/2])); err == nil {
		t.Error("accepted a truncated artefact")
	}
}

func TestDefaultIsDecodedOnceAndShared(t *testing.T) {
	a, b := Default(), Default()
	if a != b {
		t.Fatal("Default decoded twice")
	}
	if len(a.SKUs()) == 0 || len(a.Regions()) == 0 {
		t.Fatal("embedded catalog is empty")
	}
}
