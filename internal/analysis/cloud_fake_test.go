package analysis

import (
	"slices"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/fakecloud"
)

// The example cloud lives in internal/testsupport/fakecloud, which the simulation's tests share.
const (
	exampleGroup  = fakecloud.Group
	exampleFamily = fakecloud.FamilyLabel
	exampleRegion = fakecloud.Region
)

func examplePool(reqs ...karpv1.NodeSelectorRequirementWithMinValues) *Pool {
	p := pool(someLimits, reqs...)
	p.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: exampleGroup, Kind: "ExampleNodeClass", Name: "default"}
	return NewPool(p.NodePool)
}

var twoClouds = sync.OnceValue(func() *Analyzer { return NewWithClouds(aks.NewCloud(catalog.Default()), fakecloud.Cloud{}) })

// A NodePool whose nodeClassRef names the example group is analysed against the example
// cloud's instance types, labels and regions, with no Azure size or finding in sight; an AKS
// pool on the same solver is still analysed against Azure's catalog.
func TestSecondCloudServesItsNodePools(t *testing.T) {
	s := twoClouds()
	a := s.Analyze(examplePool(req(exampleFamily, corev1.NodeSelectorOpIn, "general")), Options{Region: exampleRegion, NodeClass: aks.NodeClass{}})
	if got := skuNames(a.Admissible); !slices.Equal(got, []string{"ex.general.large", "ex.general.small"}) {
		t.Errorf("admissible %v, want the two general example types", got)
	}
	if a.Summary.CheapestSKU != "ex.general.small" || a.Summary.CheapestHourlyPrice != 0.10 || a.Summary.PriceSource != "example list" {
		t.Errorf("summary %+v", a.Summary)
	}
	// Two sizes are fewer than FewThreshold (5): the one finding expected is KRP102.
	if got := codes(a); !slices.Equal(got, []findings.Code{findings.FewInstanceTypes}) {
		t.Errorf("findings %v (%v), want only KRP102", got, a.Findings)
	}

	// Label checks use the example cloud's domain and values.
	a = s.Analyze(examplePool(req(exampleGroup+"/famly", corev1.NodeSelectorOpIn, "general")), Options{Region: exampleRegion})
	if f := findingOf(a, findings.UnknownLabelKey); f == nil || !strings.Contains(f.Message, `did you mean "`+exampleFamily+`"`) {
		t.Errorf("typo in the example domain: %v", a.Findings)
	}
	a = s.Analyze(examplePool(req(exampleFamily, corev1.NodeSelectorOpIn, "generl")), Options{Region: exampleRegion})
	if f := findingOf(a, findings.UnknownLabelValue); f == nil || !strings.Contains(f.Message, `did you mean "general"`) {
		t.Errorf("typo in an example value: %v", a.Findings)
	}
	// Regions are the pool's cloud's: an Azure region is unknown to the example cloud.
	a = s.Analyze(examplePool(), Options{Region: "westeurope"})
	if f := findingOf(a, findings.UnknownRegion); f == nil || !strings.Contains(f.Fix, "an Example region name such as \"example-1\"") {
		t.Errorf("Azure region for an example pool: %v", a.Findings)
	}

	az := s.Analyze(pool(someLimits, req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D")), Options{Region: "westeurope"})
	if len(az.Admissible) < 20 || !strings.HasPrefix(az.Admissible[0].InstanceType.Name, "Standard_") {
		t.Errorf("the AKS pool lost Azure's catalog: %d admissible", len(az.Admissible))
	}
	if a := s.Analyze(pool(someLimits), Options{Region: exampleRegion}); findingOf(a, findings.UnknownRegion) == nil {
		t.Error("an example region must be unknown to an AKS pool")
	}
}

func findingOf(a *Analysis, code findings.Code) *findings.Finding {
	for i := range a.Findings {
		if a.Findings[i].Code == code {
			return &a.Findings[i]
		}
	}
	return nil
}
