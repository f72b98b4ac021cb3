package analysis

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

var testSolver = New(catalog.Default())

func req(key string, op corev1.NodeSelectorOperator, values ...string) karpv1.NodeSelectorRequirementWithMinValues {
	return karpv1.NodeSelectorRequirementWithMinValues{Key: key, Operator: op, Values: values}
}

func pool(limits corev1.ResourceList, reqs ...karpv1.NodeSelectorRequirementWithMinValues) *Pool {
	np := &karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: "p"}}
	np.Spec.Template.Spec.Requirements = reqs
	np.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}
	np.Spec.Limits = karpv1.Limits(limits)
	return NewPool(np)
}

var someLimits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100")}

func codes(a *Analysis) []findings.Code {
	var out []findings.Code
	for _, f := range a.Findings {
		out = append(out, f.Code)
	}
	return out
}

// Every admissible candidate satisfies the pool's requirements by Karpenter's own semantics,
// and every instance type left out fails them.
func TestAdmissibleAgreesWithKarpenterSemantics(t *testing.T) {
	p := pool(someLimits,
		req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D", "E"),
		req("karpenter.azure.com/sku-cpu", corev1.NodeSelectorOpGt, "3"),
		req("karpenter.azure.com/sku-cpu", corev1.NodeSelectorOpLt, "17"),
		req("kubernetes.io/arch", corev1.NodeSelectorOpIn, "amd64"),
	)
	a := testSolver.Analyze(p, Options{Region: "westeurope"})
	admitted := map[string]bool{}
	for _, c := range a.Admissible {
		admitted[c.InstanceType.Name] = true
		cpu := c.InstanceType.Capacity.Cpu().Value()
		fam := c.InstanceType.Requirements.Get("karpenter.azure.com/sku-family").Any()
		if cpu <= 3 || cpu >= 17 || (fam != "D" && fam != "E") {
			t.Errorf("%s admitted with cpu %d family %s", c.InstanceType.Name, cpu, fam)
		}
	}
	rt := testSolver.types("westeurope", aks.NodeClass{})
	for _, it := range rt.result.InstanceTypes {
		if !admitted[it.Name] && it.Requirements.Intersects(p.Requirements) == nil && len(it.Offerings.Available().Compatible(p.Requirements)) > 0 {
			t.Errorf("%s satisfies the requirements but was not admitted", it.Name)
		}
	}
	if len(a.Admissible) < 20 {
		t.Fatalf("too few admissible sizes (%d) for a wide pool", len(a.Admissible))
	}
	if got := codes(a); len(got) != 0 {
		t.Errorf("unexpected findings %v", got)
	}
}

func TestFindings(t *testing.T) {
	gpu := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1000")}
	cases := []struct {
		name string
		pool *Pool
		opts Options
		want findings.Code
		path string
		text string
	}{
		{"no instance type", pool(someLimits, req("karpenter.azure.com/sku-cpu", corev1.NodeSelectorOpGt, "5000")), Options{Region: "westeurope"},
			findings.NoInstanceType, "spec.template.spec.requirements", "requirement 0"},
		{"few", pool(someLimits, req("node.kubernetes.io/instance-type", corev1.NodeSelectorOpIn, "Standard_D2s_v5", "Standard_D4s_v5")), Options{Region: "westeurope"},
			findings.FewInstanceTypes, "spec.template.spec.requirements", "Standard_D2s_v5, Standard_D4s_v5"},
		{"no limits", pool(nil, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D")), Options{Region: "westeurope"},
			findings.NoLimits, "spec.limits", "without bound"},
		{"limits below node", pool(corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")}, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D")), Options{Region: "westeurope"},
			findings.LimitsBelowNode, "spec.limits", "memory=1Gi"},
		{"unknown key", pool(someLimits, req("node.kubernetes.io/instance-typ", corev1.NodeSelectorOpIn, "Standard_D2s_v5")), Options{Region: "westeurope"},
			findings.UnknownLabelKey, "spec.template.spec.requirements[0].key", `"node.kubernetes.io/instance-type"`},
		{"misspelt value", pool(someLimits, req("kubernetes.io/arch", corev1.NodeSelectorOpIn, "amd64", "arm46")), Options{Region: "westeurope"},
			findings.UnknownLabelValue, "spec.template.spec.requirements[0].values", `"arm64"`},
		{"gpu without taint", pool(gpu, req("karpenter.azure.com/sku-gpu-manufacturer", corev1.NodeSelectorOpIn, "nvidia")), Options{Region: "westeurope"},
			findings.GPUWithoutTaint, "spec.template.spec.taints", "GPU size"},
		{"single zone", pool(someLimits, req("topology.kubernetes.io/zone", corev1.NodeSelectorOpIn, "westeurope-2")), Options{Region: "westeurope"},
			findings.SingleZone, "spec.template.spec.requirements", "westeurope-2"},
		{"pod never fits", pool(someLimits, req("karpenter.azure.com/sku-cpu", corev1.NodeSelectorOpLt, "5")),
			Options{Region: "westeurope", LargestPod: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4")}},
			findings.PodNeverFits, "spec.template.spec.requirements", "cpu=4"},
		{"unknown region", pool(someLimits), Options{Region: "westeurop"}, findings.UnknownRegion, "", `"westeurope"`},
		{"node class assumed", pool(someLimits), Options{Region: "westeurope", NodeClassAssumed: true}, findings.NodeClassAssumed, "spec.template.spec.nodeClassRef", "defaults"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := testSolver.Analyze(tc.pool, tc.opts)
			i := slices.IndexFunc(a.Findings, func(f findings.Finding) bool { return f.Code == tc.want })
			if i < 0 {
				t.Fatalf("no %s finding; got %v", tc.want, a.Findings)
			}
			f := a.Findings[i]
			if f.Path != tc.path || !strings.Contains(f.Message+" "+f.Fix, tc.text) {
				t.Errorf("finding %s = %q at %q; want path %q and text %q", f.Code, f.Message+" / "+f.Fix, f.Path, tc.path, tc.text)
			}
		})
	}
}

// minValues is judged over the admissible sizes with Karpenter's own SatisfiesMinValues.
func TestMinValues(t *testing.T) {
	two := 2
	five := 5
	r := req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D", "E", "F", "L", "M")
	r.MinValues = &five
	p := pool(someLimits, r, req("karpenter.azure.com/sku-cpu", corev1.NodeSelectorOpLt, "3"))
	a := testSolver.Analyze(p, Options{Region: "westeurope"})
	if !slices.Contains(codes(a), findings.MinValuesUnmet) {
		t.Fatalf("minValues 5 over small sizes not reported: %v", a.Findings)
	}
	r.MinValues = &two
	a = testSolver.Analyze(pool(someLimits, r), Options{Region: "westeurope"})
	if slices.Contains(codes(a), findings.MinValuesUnmet) {
		t.Fatalf("minValues 2 reported although D and E are admissible: %v", a.Findings)
	}
}

// The AKSNodeClass narrows the admissible set: FIPS and encryption at host exclude sizes.
func TestNodeClassNarrowsAdmissible(t *testing.T) {
	p := pool(someLimits, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D", "E", "F", "N"))
	plain := testSolver.Analyze(p, Options{Region: "westeurope"}).Summary.AdmissibleSKUs
	secure := testSolver.Analyze(p, Options{Region: "westeurope", NodeClass: aks.NodeClass{EncryptionAtHost: true}}).Summary.AdmissibleSKUs
	if secure >= plain || secure == 0 {
		t.Fatalf("encryption at host admitted %d of %d sizes; expected fewer but some", secure, plain)
	}
}

// The summary's cheapest size and price agree with the admissible candidates and the catalog.
func TestSummary(t *testing.T) {
	p := pool(corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("64")},
		req("node.kubernetes.io/instance-type", corev1.NodeSelectorOpIn, "Standard_D2s_v5", "Standard_D4s_v5", "Standard_D8s_v5", "Standard_D16s_v5", "Standard_D32s_v5"),
		req("karpenter.sh/capacity-type", corev1.NodeSelectorOpIn, "on-demand"))
	a := testSolver.Analyze(p, Options{Region: "westeurope"})
	price, _, ok := catalog.Default().Price("westeurope", "Standard_D2s_v5", catalog.CapacityType("on-demand"))
	s := a.Summary
	if !ok || s.CheapestSKU != "Standard_D2s_v5" || s.CheapestHourlyPrice != price || s.CheapestCapacity != "on-demand" {
		t.Errorf("cheapest = %s %v %s, want Standard_D2s_v5 %v on-demand", s.CheapestSKU, s.CheapestHourlyPrice, s.CheapestCapacity, price)
	}
	if s.LargestSKU != "Standard_D32s_v5" || s.LargestVCPU != 32 || !s.LimitsAllowOneNode || s.AdmissibleSKUs != 5 {
		t.Errorf("summary %+v", s)
	}
	if want := round(price / 2 * 64 * HoursPerMonth); s.MonthlyCostAtLimits == nil || *s.MonthlyCostAtLimits != want {
		t.Errorf("monthly cost at limits %v, want %v", s.MonthlyCostAtLimits, want)
	}
	if _, ok := s.CapacityTypes["spot"]; ok || len(s.CapacityTypes) != 1 {
		t.Errorf("an on-demand pool has no spot side: %+v", s.CapacityTypes)
	}
}

// Without a region every size of the catalog counts, and spot prices are marked as estimates.
func TestAnyRegion(t *testing.T) {
	a := testSolver.Analyze(pool(someLimits, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D")), Options{})
	if a.Summary.AdmissibleSKUs == 0 || !strings.Contains(a.Summary.Scope, "any region") {
		t.Fatalf("any-region analysis: %+v", a.Summary)
	}
}

// Unknown values are reported once per requirement with a bounded list and a few
// suggestions, however many values it has: 10,000 generated values are one finding.
func TestUnknownValuesAggregated(t *testing.T) {
	vals := []string{"arm46", "amd46", strings.Repeat("y", 1<<20)}
	for i := range 10000 {
		vals = append(vals, fmt.Sprintf("bogus-%05d", i))
	}
	vals = append(vals, strings.Repeat("x", 1<<20))
	a := testSolver.Analyze(pool(someLimits, req("kubernetes.io/arch", corev1.NodeSelectorOpIn, vals...)), Options{Region: "westeurope"})
	var got []findings.Finding
	for _, f := range a.Findings {
		if f.Code == findings.UnknownLabelValue {
			got = append(got, f)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d KRP107 findings, want 1", len(got))
	}
	m := got[0].Message
	if len(m) > 2000 || !strings.Contains(m, `"arm46", "amd46", "`+strings.Repeat("y", 80)+`…", "bogus-00000"`) || !strings.Contains(m, "and 9994 more") ||
		!strings.Contains(m, `did you mean "arm64" for "arm46", "amd64" for "amd46"?`) || got[0].Fix != "use values Karpenter sets on AKS nodes" {
		t.Errorf("KRP107 (%d bytes): %s / %s", len(m), m, got[0].Fix)
	}
}
