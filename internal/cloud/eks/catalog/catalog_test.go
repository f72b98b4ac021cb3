package catalog

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/reftest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/refdata"
)

// TestEmbeddedIsCurrent: the embedded artefact is what the generator makes of
// the reference data now (run make generate-eks-catalog when this fails).
func TestEmbeddedIsCurrent(t *testing.T) {
	c, err := Build(reftest.Dir(t, "aws"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), embedded) {
		t.Fatalf("catalog.json.gz is stale (%d bytes embedded, %d generated): run make generate-eks-catalog", len(embedded), buf.Len())
	}
}

func TestDefaultFacts(t *testing.T) {
	c := Default()
	if got := len(c.Types); got != 1363 {
		t.Errorf("%d instance types, want 1363", got)
	}
	m5, ok := c.Get("m5.large")
	if !ok {
		t.Fatal("m5.large missing")
	}
	if m5.VCPU != 2 || m5.MemoryMiB != 8192 || m5.Arch != "amd64" || m5.Hypervisor != "nitro" {
		t.Errorf("m5.large facts: %+v", *m5)
	}
	if m5.ENI == nil || m5.ENI.Interfaces != 3 || m5.ENI.IPv4PerInterface != 10 || !m5.ENI.Trunking || m5.ENI.BranchInterfaces != 9 {
		t.Errorf("m5.large ENI limits: %+v", m5.ENI)
	}
	p5, _ := c.Get("p5.48xlarge")
	if p5 == nil || p5.GPU == nil || p5.GPU.Name != "h100" || p5.NVIDIAGPUs != 8 || p5.EFAs != 32 {
		t.Errorf("p5.48xlarge devices: %+v", p5)
	}
	// Types the VPC limits lack carry upstream's printed pod density instead.
	hpc, _ := c.Get("hpc7a.96xlarge")
	if hpc == nil || hpc.ENI != nil || hpc.ENILimitedPods == nil {
		t.Errorf("hpc7a.96xlarge: want no ENI limits and a pod density, got %+v", hpc)
	}
	if _, ok := c.Get("m5.huge"); ok {
		t.Error("m5.huge found")
	}
}

func TestPricesCarryCurrencyAndProvenance(t *testing.T) {
	c := Default()
	p, ok := c.Price("us-east-1", "m5.large", OnDemand)
	if !ok || p.Value != 0.096 || p.Currency != "USD" || p.Estimate || !strings.Contains(p.Source, "2026-07-20") {
		t.Errorf("us-east-1 m5.large on-demand: %+v %v", p, ok)
	}
	cn, ok := c.Price("cn-north-1", "m5.large", OnDemand)
	if !ok || cn.Currency != "CNY" || !strings.Contains(cn.Source, "2024-11-06") {
		t.Errorf("cn-north-1 m5.large on-demand: %+v %v", cn, ok)
	}
	gov, ok := c.Price("us-gov-west-1", "m5.large", OnDemand)
	if !ok || gov.Currency != "USD" {
		t.Errorf("us-gov-west-1 m5.large on-demand: %+v %v", gov, ok)
	}
	s, ok := c.Price("eu-west-1", "m5.large", Spot)
	if !ok || !s.Estimate || s.Currency != "USD" || !strings.Contains(s.Source, "2024-08-09") || !strings.Contains(s.String(), "spot estimate") {
		t.Errorf("eu-west-1 m5.large spot: %+v %v", s, ok)
	}
	if _, ok := c.Price("eu-west-1", "m5.large", OnDemand); ok {
		t.Error("eu-west-1 has no on-demand table, yet a price was returned")
	}
	if got := c.PriceRegions(OnDemand); strings.Join(got, ",") != "cn-north-1,us-east-1,us-gov-east-1,us-gov-west-1" {
		t.Errorf("on-demand regions %v", got)
	}
}

// TestBuildRejectsUnknownLabels: a label upstream adds must fail the generator,
// not vanish from the catalog; every problem is reported at once.
func TestBuildRejectsUnknownLabels(t *testing.T) {
	src := reftest.Dir(t, "aws")
	dir := t.TempDir()
	for _, f := range []string{VPCFile, OnDemandFile, SpotFile} {
		b, err := refdata.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs := `[{"name":"x1.large","labels":{"karpenter.k8s.aws/instance-cpu":"two","karpenter.k8s.aws/instance-new":"1"},"resources":{"example.com/widget":"1"}}]`
	if err := os.WriteFile(filepath.Join(dir, DocsFile), []byte(docs), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Build(dir)
	if err == nil {
		t.Fatal("Build accepted unknown labels")
	}
	for _, want := range []string{
		`x1.large: label karpenter.k8s.aws/instance-cpu="two" is not an integer`,
		"x1.large: label karpenter.k8s.aws/instance-new is not known to the generator",
		"x1.large: resource example.com/widget is not known to the generator",
		"x1.large: label kubernetes.io/arch missing",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

func TestDecodeRejectsGarbage(t *testing.T) {
	if _, err := Decode(strings.NewReader("not gzip")); err == nil {
		t.Error("Decode accepted garbage")
	}
}

func TestOfferingPriceFallbacks(t *testing.T) {
	c := Default()
	// A region with its own table: that table, not an estimate.
	if p, ok := c.OfferingPrice("us-gov-west-1", "m5.large", OnDemand); !ok || p.Estimate || p.Value == 0.096 {
		t.Errorf("us-gov-west-1 on-demand: %+v %v", p, ok)
	}
	// No table: the us-east-1 list price, labelled as the fallback.
	p, ok := c.OfferingPrice("eu-west-1", "m5.large", OnDemand)
	if !ok || p.Value != 0.096 || !p.Estimate || !strings.Contains(p.Source, "no on-demand table for eu-west-1: the us-east-1 list price") {
		t.Errorf("eu-west-1 on-demand: %+v %v", p, ok)
	}
	cn, ok := c.OfferingPrice("cn-northwest-1", "m5.large", OnDemand)
	if !ok || cn.Currency != "USD" || !strings.Contains(cn.Source, "(USD, in a CNY region)") {
		t.Errorf("cn-northwest-1 on-demand: %+v %v", cn, ok)
	}
	// Spot: the snapshot where it has the type, else the on-demand price.
	if s, ok := c.OfferingPrice("eu-west-1", "m5.large", Spot); !ok || !s.Estimate || !strings.Contains(s.Source, "2024-08-09") {
		t.Errorf("eu-west-1 spot: %+v %v", s, ok)
	}
	s, ok := c.OfferingPrice("us-gov-west-1", "m5.large", Spot)
	od, _ := c.OfferingPrice("us-gov-west-1", "m5.large", OnDemand)
	if !ok || s.Value != od.Value || !s.Estimate || !strings.Contains(s.Source, "Karpenter's own spot price until it fetches spot prices") {
		t.Errorf("us-gov-west-1 spot: %+v %v", s, ok)
	}
	// A region with a table that lacks the type: no price (no fallback).
	if _, ok := c.OfferingPrice("cn-north-1", "p5.48xlarge", OnDemand); ok {
		t.Error("cn-north-1 p5.48xlarge: priced from another region's table")
	}
}
