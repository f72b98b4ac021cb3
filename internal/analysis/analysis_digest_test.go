package analysis

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// analysisDigest is the digest of every answer TestAnalysisDigest's pools get: their admitted
// sizes in order with each one's offerings, summaries and findings. It was recorded on main
// before the offering views (f01c214); a change of it is a change of some decision, price or
// finding.
const analysisDigest = "c8115cc41c50f4324b91ab77d83af78a03a22ca0c91bc03da0957fa8195c639a"

// TestAnalysisDigest analyses random pools (requirements on families, sizes, zones, capacity
// types, GPUs and architecture; limits; taints; static pools; a largest pod) in an AKS region
// with zones, one without spot list prices, over the full catalog and in an EKS region, each
// pool twice on one solver, the first two also on a fresh one (views built, then reused), and compares the
// digest of the answers with the recorded one.
func TestAnalysisDigest(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 1))
	aksMenu := []karpv1.NodeSelectorRequirementWithMinValues{
		req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D", "E", "F"),
		req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpNotIn, "B"),
		req("karpenter.azure.com/sku-cpu", corev1.NodeSelectorOpGt, "3"),
		req("karpenter.azure.com/sku-cpu", corev1.NodeSelectorOpLt, "33"),
		req(corev1.LabelArchStable, corev1.NodeSelectorOpIn, "amd64"),
		req(corev1.LabelArchStable, corev1.NodeSelectorOpIn, "arm64"),
		req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, "on-demand"),
		req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, "spot"),
		req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, "spot", "on-demand"),
		req(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, "westeurope-1", "eastus-2"),
		req(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, "westeurope-3"),
		req(corev1.LabelTopologyZone, corev1.NodeSelectorOpNotIn, "0"),
		req("karpenter.azure.com/sku-gpu-count", corev1.NodeSelectorOpDoesNotExist),
		req("karpenter.azure.com/sku-gpu-count", corev1.NodeSelectorOpExists),
		req(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpIn, "Standard_D4s_v5", "Standard_D2_v3", "Standard_E8s_v5"),
		req("karpenter.azure.com/sku-name", corev1.NodeSelectorOpIn, "Standard_D4s_v5"),
		req("team", corev1.NodeSelectorOpIn, "a"),
	}
	eksMenu := []karpv1.NodeSelectorRequirementWithMinValues{
		req(corev1.LabelArchStable, corev1.NodeSelectorOpIn, "amd64"),
		req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, "on-demand"),
		req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, "spot"),
		req("karpenter.k8s.aws/instance-category", corev1.NodeSelectorOpIn, "c", "m", "r"),
		req("karpenter.k8s.aws/instance-generation", corev1.NodeSelectorOpGt, "5"),
		req("karpenter.k8s.aws/instance-cpu", corev1.NodeSelectorOpLt, "17"),
		req(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, "us-east-1a"),
	}
	limitMenu := []corev1.ResourceList{
		nil,
		{corev1.ResourceCPU: resource.MustParse("100")},
		{corev1.ResourceCPU: resource.MustParse("4")},
		{corev1.ResourceCPU: resource.MustParse("20000"), corev1.ResourceMemory: resource.MustParse("64Gi")},
		{"nodes": resource.MustParse("3")},
		{"nvidia.com/gpu": resource.MustParse("2")},
	}
	scopes := []struct {
		region string
		menu   []karpv1.NodeSelectorRequirementWithMinValues
		eks    bool
	}{{"westeurope", aksMenu, false}, {"eastus", aksMenu, false}, {AnyRegion, aksMenu, false}, {"us-east-1", eksMenu, true}}
	shared := New(catalog.Default())
	h := sha256.New()
	n := 0
	for _, sc := range scopes {
		for trial := 0; trial < 40; trial++ {
			var reqs []karpv1.NodeSelectorRequirementWithMinValues
			for _, r := range sc.menu {
				if rng.IntN(4) == 0 {
					reqs = append(reqs, r)
				}
			}
			if len(reqs) > 0 && rng.IntN(5) == 0 {
				two := 2
				reqs[0].MinValues = &two
			}
			mk := pool
			if sc.eks {
				mk = eksPool
			}
			p := mk(limitMenu[rng.IntN(len(limitMenu))], reqs...)
			if rng.IntN(5) == 0 {
				p.Spec.Template.Spec.Taints = []corev1.Taint{{Key: "nvidia.com/gpu", Value: "true", Effect: corev1.TaintEffectNoSchedule}}
			}
			if rng.IntN(8) == 0 {
				one := int64(1)
				p.Spec.Replicas = &one
			}
			o := Options{Region: sc.region}
			if rng.IntN(4) == 0 {
				o.LargestPod = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("30"), corev1.ResourceMemory: resource.MustParse("100Gi")}
			}
			first := digestOf(t, shared.Analyze(p, o))
			again := map[string]*Analysis{"again": shared.Analyze(p, o)}
			if trial < 2 {
				again["fresh solver"] = New(catalog.Default()).Analyze(p, o)
			}
			for name, a := range again {
				if d := digestOf(t, a); d != first {
					t.Fatalf("%s %v: %s answers differently from the first analysis", sc.region, reqs, name)
				}
			}
			h.Write([]byte(first))
			n++
		}
	}
	got := hex.EncodeToString(h.Sum(nil))
	t.Logf("%d pools, digest %s", n, got)
	if got != analysisDigest {
		t.Errorf("digest %s over %d pools, recorded %s: some decision, price or finding changed", got, n, analysisDigest)
	}
}

// digestOf is the canonical text of an analysis: every admitted size with its offerings (zone,
// capacity type, price, availability) in order, the summary and the findings.
func digestOf(t *testing.T, a *Analysis) string {
	t.Helper()
	type offering struct {
		Reqs      string
		Price     float64
		Available bool
	}
	type candidate struct {
		Region, Name string
		Offerings    []offering
	}
	var cands []candidate
	for _, c := range a.Admissible {
		cd := candidate{Region: c.Region, Name: c.InstanceType.Name}
		for k, of := range c.Offerings {
			if c.class != nil && c.idx.classCapacity[c.class[k]] != of.CapacityType() {
				t.Fatalf("%s: offering %d is %s, its class says %s", c.InstanceType.Name, k, of.CapacityType(), c.idx.classCapacity[c.class[k]])
			}
			cd.Offerings = append(cd.Offerings, offering{Reqs: of.Requirements.String(), Price: of.Price, Available: of.Available})
		}
		cands = append(cands, cd)
	}
	b, err := json.Marshal(struct {
		Regions    []string
		Admissible []candidate
		Summary    Summary
		Findings   any
		SKUs       []string
	}{a.Regions, cands, a.Summary, a.Findings, a.skuNames()})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x\n", sha256.Sum256(b))
}
