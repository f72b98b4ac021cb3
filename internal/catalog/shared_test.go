package catalog_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/catalog/reftest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/catalog/source"
)

// TestEmbeddedArtefactIsUpToDate regenerates the catalog from the reference
// snapshot and requires the committed artefact to be byte-identical: the
// generator must be deterministic and nobody may forget to run go generate.
func TestEmbeddedArtefactIsUpToDate(t *testing.T) {
	b := source.NewBuilder()
	if err := b.ReadSnapshotDir(reftest.Dir(t, "catalog")); err != nil {
		t.Fatal(err)
	}
	data, err := b.Data()
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.New(data)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("catalog.bin.gz")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), committed) {
		t.Fatalf("catalog.bin.gz is stale or the generator is not deterministic (%d bytes regenerated, %d committed); run go generate ./internal/catalog", buf.Len(), len(committed))
	}
}

// TestEmbeddedPricesMatchSnapshot compares every price of the reference price
// list with the embedded catalog, bit for bit.
func TestEmbeddedPricesMatchSnapshot(t *testing.T) {
	raw, err := os.ReadFile(reftest.Dir(t, "catalog", source.SnapshotPrices))
	if err != nil {
		t.Fatal(err)
	}
	var in struct {
		OnDemand map[string]map[string]float64 `json:"on_demand"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	c := catalog.Default()
	n := 0
	for region, bySKU := range in.OnDemand {
		for sku, want := range bySKU {
			n++
			got, est, ok := c.Price(region, sku, catalog.OnDemand)
			if !ok || est || got != want {
				t.Errorf("%s %s: on-demand %v (estimated %v, ok %v), want %v", region, sku, got, est, ok, want)
			}
			spot, est, ok := c.Price(region, sku, catalog.Spot)
			if !ok || !est || spot != want {
				t.Errorf("%s %s: spot must be the on-demand price marked as an estimate, got %v %v %v", region, sku, spot, est, ok)
			}
		}
	}
	if n < 60000 {
		t.Fatalf("only %d reference prices read", n)
	}
}

// TestEmbeddedSKUsMatchSnapshot checks facts of every SKU against the snapshot's
// own normalised fields, including "unknown".
func TestEmbeddedSKUsMatchSnapshot(t *testing.T) {
	raw, err := os.ReadFile(reftest.Dir(t, "catalog", source.SnapshotSKUs))
	if err != nil {
		t.Fatal(err)
	}
	var in []struct {
		Name      string                     `json:"name"`
		VCPUs     int64                      `json:"vcpus"`
		MemoryGiB float64                    `json:"memory_gib"`
		Arch      *string                    `json:"arch"`
		GPUCount  *int64                     `json:"gpu_count"`
		PremiumIO *bool                      `json:"premium_io"`
		Known     bool                       `json:"known_to_karpenter"`
		Caps      json.RawMessage            `json:"capabilities"`
		Locations map[string]json.RawMessage `json:"locations"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	c := catalog.Default()
	if len(in) != len(c.SKUs()) {
		t.Fatalf("%d SKUs in the snapshot, %d embedded", len(in), len(c.SKUs()))
	}
	for _, want := range in {
		s, ok := c.SKU(want.Name)
		if !ok {
			t.Errorf("%s missing", want.Name)
			continue
		}
		arch := ""
		if want.Arch != nil {
			arch = *want.Arch
		}
		gpu, gpuKnown := s.GPUCount.Get()
		premium, premiumKnown := s.PremiumIO.Get()
		switch {
		case s.VCPUs != want.VCPUs || s.MemoryGiB != want.MemoryGiB || s.Arch != arch:
			t.Errorf("%s: size facts differ", want.Name)
		case gpuKnown != (want.GPUCount != nil) || (gpuKnown && gpu != *want.GPUCount):
			t.Errorf("%s: GPU count %v/%v, want %v", want.Name, gpu, gpuKnown, want.GPUCount)
		case premiumKnown != (want.PremiumIO != nil) || (premiumKnown && premium != *want.PremiumIO):
			t.Errorf("%s: premium IO %v/%v, want %v", want.Name, premium, premiumKnown, want.PremiumIO)
		case s.KnownToKarpenter != want.Known:
			t.Errorf("%s: known to Karpenter %v, want %v", want.Name, s.KnownToKarpenter, want.Known)
		case s.HasCapabilities() != (string(want.Caps) != "null"):
			t.Errorf("%s: capabilities presence differs", want.Name)
		case len(s.Locations) != len(want.Locations):
			t.Errorf("%s: %d locations, want %d", want.Name, len(s.Locations), len(want.Locations))
		}
	}
}
