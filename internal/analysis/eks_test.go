package analysis

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// eksPool is a pool whose nodeClassRef names an EC2NodeClass: served by the AWS cloud.
func eksPool(limits corev1.ResourceList, reqs ...karpv1.NodeSelectorRequirementWithMinValues) *Pool {
	p := pool(limits, reqs...)
	p.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"}
	return NewPool(p.NodePool)
}

// gettingStarted is the requirements of Karpenter's getting-started NodePool on EKS.
func gettingStarted(extra ...karpv1.NodeSelectorRequirementWithMinValues) []karpv1.NodeSelectorRequirementWithMinValues {
	return append([]karpv1.NodeSelectorRequirementWithMinValues{
		req(corev1.LabelArchStable, corev1.NodeSelectorOpIn, "amd64"),
		req(corev1.LabelOSStable, corev1.NodeSelectorOpIn, "linux"),
		req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, "on-demand"),
		req(eks.LabelInstanceCategory, corev1.NodeSelectorOpIn, "c", "m", "r"),
		req(eks.LabelInstanceGeneration, corev1.NodeSelectorOpGt, "2"),
	}, extra...)
}

var cpu1000 = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1000")}

// The getting-started pool on EKS is served by the EC2 catalog: hundreds of EC2 types, EC2
// names and prices, no error, one note (KRP125) saying the catalog has no zones, and one
// warning: its 1000 vCPU hold two of its largest type, r8i.96xlarge (KRP119,
// TestReservationEKSVocabulary).
func TestEKSGettingStartedPool(t *testing.T) {
	s := New(catalog.Default())
	a := s.Analyze(eksPool(cpu1000, gettingStarted()...), Options{Region: "us-east-1"})
	n := len(a.skuNames())
	t.Logf("getting-started pool admits %d us-east-1 instance types; cheapest %s at %g (%s)", n, a.Summary.CheapestSKU, a.Summary.CheapestHourlyPrice, a.Summary.PriceSource)
	if n < 200 {
		t.Errorf("admits %d instance types, want hundreds", n)
	}
	if strings.HasPrefix(a.Summary.CheapestSKU, "Standard_") || !strings.Contains(a.Summary.CheapestSKU, ".") {
		t.Errorf("cheapest %q is not an EC2 instance type", a.Summary.CheapestSKU)
	}
	for _, f := range a.Findings {
		if f.Severity() != findings.Note && f.Code != findings.LimitsReservation {
			t.Errorf("unexpected %s: %s", f.Code, f.Message)
		}
	}
	if findingOf(a, findings.LimitsReservation) == nil {
		t.Errorf("no KRP119 on 1000 vCPU over types up to 384 vCPU: %v", a.Findings)
	}
	if f := findingOf(a, findings.CatalogGap); f == nil || !strings.Contains(f.Message, "no availability zones") {
		t.Errorf("no KRP125 note on zones: %v", a.Findings)
	}

	a = s.Analyze(eksPool(cpu1000, gettingStarted(req(eks.LabelInstanceCPU, corev1.NodeSelectorOpGt, "4096"))...), Options{Region: "us-east-1"})
	if f := findingOf(a, findings.NoInstanceType); f == nil || !strings.Contains(f.Message, "requirement 5 (karpenter.k8s.aws/instance-cpu Gt [4096])") {
		t.Errorf("instance-cpu Gt 4096: %v", a.Findings)
	}
}

// With both providers linked, karpv1.WellKnownLabels holds Azure's and AWS's labels; each
// cloud's checks use its own Karpenter's set. An AKS pool's karpenter.k8s.aws/* key is a
// custom label on AKS (KRP106, pointing at the Azure key of the same role), and an EKS pool's
// karpenter.azure.com/* key one on EKS.
func TestOtherCloudsLabelIsUnknown(t *testing.T) {
	s := New(catalog.Default())
	a := s.Analyze(pool(someLimits, req(eks.LabelInstanceFamily, corev1.NodeSelectorOpIn, "m5")), Options{Region: "westeurope"})
	if f := findingOf(a, findings.UnknownLabelKey); f == nil || !strings.Contains(f.Message, `did you mean "karpenter.azure.com/sku-family"?`) ||
		!strings.Contains(f.Message, "a label of Karpenter on EKS, not one Karpenter or AKS sets") {
		t.Errorf("AKS pool with %s: %v", eks.LabelInstanceFamily, a.Findings)
	}
	a = s.Analyze(eksPool(someLimits, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D")), Options{Region: "us-east-1"})
	if f := findingOf(a, findings.UnknownLabelKey); f == nil || !strings.Contains(f.Message, `did you mean "karpenter.k8s.aws/instance-family"?`) ||
		!strings.Contains(f.Message, "not one Karpenter or EKS sets") {
		t.Errorf("EKS pool with karpenter.azure.com/sku-family: %v", a.Findings)
	}
	aks, ekc := s.Clouds().Default(), s.Clouds().Serving("karpenter.k8s.aws")
	if aks.WellKnownLabels().Has(eks.LabelInstanceCPU) || ekc.WellKnownLabels().Has("karpenter.azure.com/sku-cpu") {
		t.Error("a cloud's well-known labels hold the other cloud's")
	}
	for _, l := range []string{karpv1.NodePoolLabelKey, karpv1.CapacityTypeLabelKey, corev1.LabelTopologyZone, corev1.LabelInstanceTypeStable, corev1.LabelWindowsBuild} {
		if !aks.WellKnownLabels().Has(l) || !ekc.WellKnownLabels().Has(l) {
			t.Errorf("core label %s missing from a cloud's set", l)
		}
	}
	if !ekc.WellKnownLabels().Has(eks.LabelTopologyZoneID) || !aks.WellKnownLabels().Has("kubernetes.azure.com/mode") {
		t.Error("a cloud's own provider labels are missing")
	}
}

// Typos under the EKS label domain get did-you-means from the EKS keys and values, in EKS words.
func TestEKSLabelTypos(t *testing.T) {
	s := New(catalog.Default())
	a := s.Analyze(eksPool(someLimits, req("karpenter.k8s.aws/instance-famly", corev1.NodeSelectorOpIn, "m5")), Options{Region: "us-east-1"})
	if f := findingOf(a, findings.UnknownLabelKey); f == nil || !strings.Contains(f.Message, `did you mean "karpenter.k8s.aws/instance-family"`) || !strings.Contains(f.Message, "Karpenter or EKS sets") {
		t.Errorf("key typo: %v", a.Findings)
	}
	a = s.Analyze(eksPool(someLimits, req(eks.LabelInstanceFamily, corev1.NodeSelectorOpIn, "m5x")), Options{Region: "us-east-1"})
	if f := findingOf(a, findings.UnknownLabelValue); f == nil || !strings.Contains(f.Message, `did you mean "m5"`) || !strings.Contains(f.Fix, "on EKS nodes") {
		t.Errorf("value typo: %v", a.Findings)
	}
	a = s.Analyze(eksPool(someLimits), Options{Region: "westeurope"})
	if f := findingOf(a, findings.UnknownRegion); f == nil || !strings.Contains(f.Message, "EC2 catalog") || !strings.Contains(f.Fix, "AWS region name") {
		t.Errorf("Azure region for an EKS pool: %v", a.Findings)
	}
	// A region without its own on-demand table says so once.
	a = s.Analyze(eksPool(someLimits), Options{Region: "eu-west-1"})
	if f := findingOf(a, findings.CatalogGap); f == nil || !strings.Contains(f.Message, "no on-demand price table for eu-west-1") {
		t.Errorf("eu-west-1: %v", a.Findings)
	}
	if got := slices.Collect(func(yield func(string) bool) {
		for _, f := range a.Findings {
			if f.Code == findings.SingleZone && !yield(f.Message) {
				return
			}
		}
	}); len(got) > 0 {
		t.Errorf("single-zone findings without zone data: %v", got)
	}
}
