package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/reftest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

func TestRun(t *testing.T) {
	if err := run("", "x"); err == nil || !strings.Contains(err.Error(), "give -ref DIR") {
		t.Errorf("no -ref: %v", err)
	}
	if err := run(t.TempDir(), filepath.Join(t.TempDir(), "out")); err == nil || !strings.Contains(err.Error(), catalog.DocsFile) {
		t.Errorf("empty directory: %v", err)
	}
	out := filepath.Join(t.TempDir(), "catalog.json.gz")
	if err := run(reftest.Dir(t, "aws"), out); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := catalog.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Types) != 1363 {
		t.Errorf("%d types", len(c.Types))
	}
}
