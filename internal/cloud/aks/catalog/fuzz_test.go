package catalog

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzOverride feeds arbitrary bytes to the override parser — the only part of
// the catalog that reads user input. Whatever parses must apply without
// panicking, and whatever applies must survive the compact encoding unchanged.
func FuzzOverride(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"mode": "replace", "skus": [{"name": "Standard_X1", "vcpus": 1, "memoryGiB": 0.5}]}`,
		`{"skus": [{"name": "Standard_D2s_v3", "premiumIO": false, "gpuCount": 3, "locations": {"x": {"zones": ["1"], "restrictions": [{"type": "Zone", "values": ["x"], "zones": ["1"]}]}}}]}`,
		`{"skus": [{"name": "Standard_N1", "capabilities": [{"name": "vCPUs", "value": "6"}, {"name": "MemoryGB", "value": "112"}, {"name": "GPUs", "value": "1"}]}]}`,
		`{"skus": [{"name": "Standard_N2", "capabilities": {"vCPUs": 6, "MemoryGB": "1e3", "PremiumIO": true}}]}`,
		`{"prices": {"EastUS": {"Standard_D2s_v3": {"onDemand": 1e-9, "spot": 0}}}, "regions": [{"name": "EastUS", "zonesKnown": true}]}`,
		`{"skus": [{"name": "Standard_D2s_v3", "capabilities": null, "knownToKarpenter": null}]}`,
	} {
		f.Add([]byte(seed))
	}
	base, err := New(testData())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		o, err := ParseOverride(doc)
		if err != nil {
			return
		}
		c, err := base.Apply(o)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := c.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := Decode(&buf)
		if err != nil {
			t.Fatalf("applied override does not decode: %v", err)
		}
		if diff := cmp.Diff(c.Data(), back.Data()); diff != "" {
			t.Fatalf("round trip changed the catalog:\n%s", diff)
		}
		for _, r := range c.Regions() {
			for _, s := range c.SKUsInRegion(r) {
				c.Zones(r, s.Name)
				c.Price(r, s.Name, Spot)
			}
		}
	})
}

// FuzzDecode: a corrupt or hostile artefact must yield an error, never a panic
// or an unbounded allocation.
func FuzzDecode(f *testing.F) {
	var buf bytes.Buffer
	c, err := New(testData())
	if err != nil {
		f.Fatal(err)
	}
	if err := c.Encode(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	raw := newEncoder(c).bytes()
	f.Add(raw)
	f.Fuzz(func(t *testing.T, data []byte) {
		if c, err := Decode(bytes.NewReader(data)); err == nil {
			c.Price("eastus", "Standard_D2s_v3", Spot)
		}
		// Also fuzz the uncompressed layer directly; gzip's checksum would
		// otherwise shield it from almost every mutation.
		if d, prices, err := decodeData(data); err == nil {
			_, _ = build(d, prices)
		}
	})
}
