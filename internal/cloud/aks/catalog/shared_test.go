package catalog_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/reftest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/refdata"
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
		t.Fatalf("catalog.bin.gz is stale or the generator is not deterministic (%d bytes regenerated, %d committed); run go generate ./internal/cloud/aks/catalog", buf.Len(), len(committed))
	}
}

// TestEmbeddedPricesMatchSnapshot compares every price of the reference price
// lists with the embedded catalog, bit for bit: on-demand from the static table
// unless the 2026-08 cross-check corrected it, spot from the spot snapshot
// where it has one and a labelled estimate everywhere else.
func TestEmbeddedPricesMatchSnapshot(t *testing.T) {
	var od struct {
		Meta struct {
			GeneratedAt string `json:"generated_at"`
		} `json:"_meta"`
		OnDemand map[string]map[string]float64 `json:"on_demand"`
	}
	var spot struct {
		Spot map[string]map[string]float64 `json:"spot"`
	}
	var fix struct {
		Mismatches []struct {
			Region, SKU string
			Linux       float64 `json:"linux_retail_2026_08"`
		} `json:"mismatches"`
	}
	readRef(t, source.SnapshotPrices, &od)
	readRef(t, source.SnapshotSpot, &spot)
	readRef(t, source.SnapshotCrossChk, &fix)
	corrected := map[[2]string]float64{}
	for _, m := range fix.Mismatches {
		corrected[[2]string{m.Region, m.SKU}] = m.Linux
	}
	c := catalog.Default()
	n := 0
	for region, bySKU := range od.OnDemand {
		for sku, want := range bySKU {
			n++
			wantSource := "list " + od.Meta.GeneratedAt[:10]
			if fixed, ok := corrected[[2]string{region, sku}]; ok {
				want, wantSource = fixed, "list 2026-08-22"
			}
			q, ok := c.Quote(region, sku, catalog.OnDemand)
			if !ok || q.Estimated || q.Price != want || q.Source != wantSource {
				t.Errorf("%s %s: on-demand %+v (ok %v), want %v from %q", region, sku, q, ok, want, wantSource)
			}
			if _, listed := spot.Spot[region][sku]; listed {
				continue
			}
			q, ok = c.Quote(region, sku, catalog.Spot)
			if !ok || !q.Estimated || !strings.HasPrefix(q.Source, "estimated: ") || q.Price > want {
				t.Errorf("%s %s: spot without a list price must be a labelled estimate at most the on-demand price, got %+v %v", region, sku, q, ok)
			}
		}
	}
	if n < 60000 {
		t.Fatalf("only %d reference prices read", n)
	}
	m := 0
	for region, bySKU := range spot.Spot {
		for sku, want := range bySKU {
			m++
			q, ok := c.Quote(region, sku, catalog.Spot)
			if !ok || q.Estimated || q.Price != want || q.Source != "list 2026-08-22" {
				t.Errorf("%s %s: spot %+v (ok %v), want list price %v", region, sku, q, ok, want)
			}
		}
	}
	if m != 6332 {
		t.Fatalf("%d spot prices read, the snapshot has 6,332", m)
	}
}

// TestPublishedPricesPinned pins published prices, so that a generator change
// cannot drift them silently: spot list prices of the 2026-08 Retail Prices API
// snapshots, on-demand prices the cross-check corrected from the Windows to the
// Linux price (and must stay corrected), and untouched on-demand prices.
func TestPublishedPricesPinned(t *testing.T) {
	c := catalog.Default()
	for _, tc := range []struct {
		region, sku string
		ct          catalog.CapacityType
		price       float64
		source      string
	}{
		{"westeurope", "Standard_D4s_v5", catalog.Spot, 0.042504, "list 2026-08-22"},
		{"westeurope", "Standard_D4s_v5", catalog.OnDemand, 0.23, "list 2026-06-18"},
		{"westeurope", "Standard_D16as_v5", catalog.Spot, 0.153754, "list 2026-08-22"},
		{"westeurope", "Standard_D16as_v5", catalog.OnDemand, 0.832, "list 2026-08-22"},     // the table had Windows' 1.568
		{"francecentral", "Standard_B16als_v2", catalog.OnDemand, 0.602, "list 2026-08-22"}, // Windows' 0.676
		{"westeurope", "Standard_E192ibs_v6", catalog.OnDemand, 24.191, "list 2026-08-22"},  // neither: 21.992 in the table
		{"northeurope", "Standard_D4s_v5", catalog.Spot, 0.068394, "list 2026-08-22"},
		{"swedencentral", "Standard_D4s_v5", catalog.Spot, 0.037699, "list 2026-08-22"},
		{"francecentral", "Standard_D4s_v5", catalog.Spot, 0.041395, "list 2026-08-22"},
		{"belgiumcentral", "Standard_D4s_v5", catalog.Spot, 0.042504, "list 2026-08-22"},
		{"eastus", "Standard_D4s_v5", catalog.OnDemand, 0.192, "list 2026-06-18"},
	} {
		q, ok := c.Quote(tc.region, tc.sku, tc.ct)
		if !ok || q.Price != tc.price || q.Source != tc.source || q.Estimated {
			t.Errorf("%s %s %s: %+v (ok %v), want %v from %q", tc.region, tc.sku, tc.ct, q, ok, tc.price, tc.source)
		}
	}
	if _, ok := c.Quote("belgiumcentral", "Standard_D4s_v5", catalog.OnDemand); ok {
		t.Error("belgiumcentral has no on-demand list price in the snapshot")
	}
}

// TestSpotEstimateWithoutListPrice: eastus has no spot list price, so its spot
// price is the on-demand price times the ratio the same size shows in the
// regions with spot list prices, and says so.
func TestSpotEstimateWithoutListPrice(t *testing.T) {
	q, ok := catalog.Default().Quote("eastus", "Standard_D4s_v5", catalog.Spot)
	want := "estimated: on-demand × 0.185, the median spot/on-demand ratio of Standard_D4s_v5 in 4 region(s) with spot list prices, range 0.185–0.320"
	if !ok || !q.Estimated || q.Source != want || q.Price != 0.035482 {
		t.Errorf("eastus spot: %+v %v, want 0.035482 from %q", q, ok, want)
	}
}

func readRef(t *testing.T, file string, v any) {
	t.Helper()
	raw, err := refdata.ReadFile(reftest.Dir(t, "catalog", file))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

// TestEmbeddedSKUsMatchSnapshot checks facts of every SKU against the snapshot's
// own normalised fields, including "unknown".
func TestEmbeddedSKUsMatchSnapshot(t *testing.T) {
	raw, err := refdata.ReadFile(reftest.Dir(t, "catalog", source.SnapshotSKUs))
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
