package catalog

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func applyJSON(t *testing.T, base *Catalog, doc string) *Catalog {
	t.Helper()
	o, err := ParseOverride([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	c, err := base.Apply(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestOverrideAddsSKUFromCapabilities(t *testing.T) {
	base := mustNew(t, testData())
	c := applyJSON(t, base, `{
	  "skus": [{
	    "name": "Standard_D4s_v7", "family": "standardDSv7Family",
	    "capabilities": {"vCPUs": "4", "MemoryGB": 16, "CpuArchitectureType": "Arm64", "PremiumIO": true,
	                     "HyperVGenerations": "V2", "EncryptionAtHostSupported": "False"},
	    "locations": {"EastUS": {"zones": ["1", "2"]}}
	  }],
	  "prices": {"eastus": {"Standard_D4s_v7": {"onDemand": 0.2, "spot": 0.05}}}
	}`)
	s, ok := c.SKU("Standard_D4s_v7")
	if !ok {
		t.Fatal("SKU not added")
	}
	want := SKU{
		Name: "Standard_D4s_v7", Size: "D4s_v7", Family: "standardDSv7Family", VCPUs: 4, MemoryGiB: 16, Arch: "arm64",
		GPUCount: IntOf(0), PremiumIO: Yes, EncryptionAtHost: No, Confidential: No, HyperVGenerations: []string{"V2"},
		Source: "override",
		Capabilities: []Capability{{"CpuArchitectureType", "Arm64"}, {"EncryptionAtHostSupported", "False"},
			{"HyperVGenerations", "V2"}, {"MemoryGB", "16"}, {"PremiumIO", "True"}, {"vCPUs", "4"}},
		Locations: map[string]Location{"eastus": {Zones: []string{"1", "2"}}},
	}
	if diff := cmp.Diff(want, *s); diff != "" {
		t.Errorf("added SKU (-want +got):\n%s", diff)
	}
	if p, est, ok := c.Price("eastus", "Standard_D4s_v7", Spot); p != 0.05 || est || !ok {
		t.Errorf("spot price %v %v %v", p, est, ok)
	}
	if zones, known := c.Zones("eastus", "Standard_D4s_v7"); !known || len(zones) != 2 {
		t.Errorf("zones %v %v", zones, known)
	}
	if _, ok := base.SKU("Standard_D4s_v7"); ok {
		t.Error("Apply modified the base catalog")
	}
}

func TestOverridePatchesOnlyGivenFields(t *testing.T) {
	base := mustNew(t, testData())
	c := applyJSON(t, base, `{
	  "skus": [{"name": "Standard_D2s_v3", "gpuModel": "none, really", "knownToKarpenter": false,
	            "locations": {"northeurope": {"zones": []}}}],
	  "prices": {"eastus": {"Standard_D2s_v3": {"spot": 0.01}}},
	  "regions": [{"name": "westus", "zonesKnown": true}]
	}`)
	s, _ := c.SKU("Standard_D2s_v3")
	orig, _ := base.SKU("Standard_D2s_v3")
	if s.GPUModel != "none, really" || s.KnownToKarpenter || s.VCPUs != orig.VCPUs || s.PremiumIO != Yes {
		t.Errorf("patch: %+v", s)
	}
	if len(s.Locations) != len(orig.Locations)+1 {
		t.Errorf("locations must merge per region, got %v", s.Locations)
	}
	if p, est, _ := c.Price("eastus", "Standard_D2s_v3", OnDemand); p != 0.096 || est {
		t.Errorf("on-demand price changed to %v", p)
	}
	if p, est, _ := c.Price("eastus", "Standard_D2s_v3", Spot); p != 0.01 || est {
		t.Errorf("spot price %v estimated %v", p, est)
	}
	if r, ok := c.Region("westus"); !ok || !r.ZonesKnown {
		t.Errorf("region not added: %+v", r)
	}
	if c.Meta().Sources[len(c.Meta().Sources)-1] != "override" {
		t.Error("provenance does not mention the override")
	}
}

func TestOverrideReplacingCapabilitiesRederivesFacts(t *testing.T) {
	c := applyJSON(t, mustNew(t, testData()), `{"skus": [{"name": "Standard_D2s_v3",
	  "capabilities": [{"name": "vCPUs", "value": "2"}, {"name": "MemoryGB", "value": "4"}, {"name": "PremiumIO", "value": "False"}]}]}`)
	s, _ := c.SKU("Standard_D2s_v3")
	if s.MemoryGiB != 4 || s.PremiumIO != No || s.Family != "standardDSv3Family" || len(s.Locations) != 3 {
		t.Errorf("re-derived SKU: %+v", s)
	}
}

// TestOverrideReplaceModeRoundTrip: the generator's JSON output, read back as a
// replace-mode override, reproduces the catalog exactly.
func TestOverrideReplaceModeRoundTrip(t *testing.T) {
	for name, c := range map[string]*Catalog{"hand-made": mustNew(t, testData()), "embedded": Default()} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := c.WriteOverrideJSON(&buf); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "fresh.json")
			if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			o, err := LoadOverride(path)
			if err != nil {
				t.Fatal(err)
			}
			back, err := mustNew(t, testData()).Apply(o)
			if err != nil {
				t.Fatal(err)
			}
			want := c.Data()
			want.Meta.Sources = append(append([]string(nil), want.Meta.Sources...), "override")
			if diff := cmp.Diff(want, back.Data()); diff != "" {
				t.Errorf("replace round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseOverrideRejects(t *testing.T) {
	cases := map[string]string{
		"unknown field":      `{"skuz": []}`,
		"unknown SKU field":  `{"skus": [{"name": "X_Y", "vcpu": 2}]}`,
		"bad mode":           `{"mode": "upsert"}`,
		"negative price":     `{"prices": {"eastus": {"Standard_D2s_v3": {"onDemand": -0.1}}}}`,
		"duplicate SKU":      `{"skus": [{"name": "A_B", "vcpus": 2, "memoryGiB": 4}, {"name": "A_B", "vcpus": 2, "memoryGiB": 4}]}`,
		"nameless SKU":       `{"skus": [{"vcpus": 2}]}`,
		"bad tristate":       `{"skus": [{"name": "A_B", "premiumIO": "yes"}]}`,
		"bad capability":     `{"skus": [{"name": "A_B", "capabilities": {"vCPUs": [2]}}]}`,
		"trailing data":      `{} {}`,
		"not JSON":           `vcpus: 2`,
		"nameless region":    `{"regions": [{"zones": ["1"]}]}`,
		"empty price region": `{"prices": {"": {"A_B": {"onDemand": 1}}}}`,
		// One catalog, one currency: a merge keeps the embedded USD prices.
		"currency in a merge": `{"mode": "merge", "currency": "EUR"}`,
		"currency not ISO":    `{"mode": "replace", "currency": "€"}`,
		"currency lower case": `{"mode": "replace", "currency": "eur"}`,
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseOverride([]byte(doc)); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

func TestApplyRejectsIncompleteNewSKU(t *testing.T) {
	for name, doc := range map[string]string{
		"no size facts":         `{"skus": [{"name": "Standard_New_v1"}]}`,
		"capabilities lack cpu": `{"skus": [{"name": "Standard_New_v1", "capabilities": {"MemoryGB": "4"}}]}`,
		"bad capability number": `{"skus": [{"name": "Standard_New_v1", "capabilities": {"vCPUs": "two", "MemoryGB": "4"}}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			o, err := ParseOverride([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := mustNew(t, testData()).Apply(o); err == nil || !strings.Contains(err.Error(), "Standard_New_v1") {
				t.Fatalf("want an error naming the SKU, got %v", err)
			}
		})
	}
}

func TestLoadWithoutOverrideIsDefault(t *testing.T) {
	c, err := Load("")
	if err != nil || c != Default() {
		t.Fatalf("Load(\"\") = %p, %v", c, err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("missing override file accepted")
	}
}

// TestOverrideSpotPricesCarrySource: spot prices from an override are exact,
// labelled as the user's, and feed the estimates of sizes without one.
func TestOverrideSpotPricesCarrySource(t *testing.T) {
	c := applyJSON(t, Default(), `{"prices": {"eastus": {
	  "Standard_D4s_v5": {"spot": 0.031, "spotSource": "negotiated 2026-11"},
	  "Standard_D8s_v5": {"onDemand": 0.38, "spot": 0.07, "onDemandSource": "list 2026-11-30", "spotSource": "list 2026-11-30"}}}}`)
	for _, tc := range []struct {
		sku    string
		ct     CapacityType
		price  float64
		source string
	}{
		{"Standard_D4s_v5", Spot, 0.031, "override: negotiated 2026-11"},
		{"Standard_D4s_v5", OnDemand, 0.192, "list 2026-06-18"},
		{"Standard_D8s_v5", OnDemand, 0.38, "list 2026-11-30"},
		{"Standard_D8s_v5", Spot, 0.07, "list 2026-11-30"},
	} {
		q, ok := c.Quote("eastus", tc.sku, tc.ct)
		if !ok || q.Estimated || q.Price != tc.price || q.Source != tc.source {
			t.Errorf("%s %s: %+v %v, want %v from %q", tc.sku, tc.ct, q, ok, tc.price, tc.source)
		}
	}
	q, _ := c.Quote("westus2", "Standard_D8s_v5", Spot)
	if !q.Estimated || !strings.Contains(q.Source, "of Standard_D8s_v5 in 5 region(s)") {
		t.Errorf("the override's eastus ratio must join the estimate of D8s_v5 elsewhere: %+v", q)
	}
	if _, err := ParseOverride([]byte(`{"prices": {"eastus": {"Standard_D4s_v5": {"spotSource": "x"}}}}`)); err == nil ||
		!strings.Contains(err.Error(), "prices.eastus.Standard_D4s_v5: spotSource is given without spot") {
		t.Errorf("a source without a price must be rejected: %v", err)
	}
}

// A replace-mode file names its prices' currency, which the catalog keeps (and writes back);
// without one, and in a merge, it is USD.
func TestOverrideCurrency(t *testing.T) {
	o, err := ParseOverride([]byte(`{"mode": "replace", "currency": "EUR", "skus": [], "prices": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := mustNew(t, testData()).Apply(o)
	if err != nil {
		t.Fatal(err)
	}
	if c.Currency() != "EUR" {
		t.Errorf("currency %q, want EUR", c.Currency())
	}
	var buf bytes.Buffer
	if err := c.WriteOverrideJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if back, err := ParseOverride(buf.Bytes()); err != nil || back.Currency != "EUR" {
		t.Errorf("written back: %+v, %v", back, err)
	}
	for _, doc := range []string{`{"mode": "merge"}`, `{"mode": "merge", "currency": "USD"}`, `{"mode": "replace"}`} {
		o, err := ParseOverride([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if c, err := Default().Apply(o); err != nil || c.Currency() != "USD" {
			t.Errorf("%s: currency %q, %v", doc, c.Currency(), err)
		}
	}
}
