package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// TestGenerateFromAPIResponses runs the generator on saved API responses alone
// (no snapshot), in both output formats, and reads each result back.
func TestGenerateFromAPIResponses(t *testing.T) {
	in := []string{
		filepath.Join("..", "source", "testdata", "resource_skus_page.json"),
		filepath.Join("..", "source", "testdata", "retail_prices_page.json"),
		filepath.Join("..", "source", "testdata", "locations_list.json"),
	}
	dir := t.TempDir()
	bin, js := filepath.Join(dir, "c.bin.gz"), filepath.Join(dir, "c.json")
	if err := run("", in, bin, "bin"); err != nil {
		t.Fatal(err)
	}
	if err := run("", in, js, "json"); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	c, err := catalog.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	o, err := catalog.LoadOverride(js)
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := c.Apply(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.SKUs()) != 2 || len(fromJSON.SKUs()) != 2 {
		t.Fatalf("SKUs: %d binary, %d JSON", len(c.SKUs()), len(fromJSON.SKUs()))
	}
	if p, est, ok := c.Price("eastus", "Standard_D2s_v3", catalog.Spot); p != 0.0192 || est || !ok {
		t.Errorf("spot price %v %v %v", p, est, ok)
	}
	if err := run("", nil, bin, "bin"); err == nil {
		t.Error("ran with no inputs")
	}
	if err := run("", in, bin, "yaml"); err == nil {
		t.Error("accepted an unknown format")
	}
}
