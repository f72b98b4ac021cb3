package benchcmp

import (
	"regexp"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// TestReservationFindingOnUpstream checks the plan-time finding KRP119 against Karpenter's own
// scheduler, the oracle: on a D/E pool limited to 200 vCPU (largest size 192) the finding fires
// and Karpenter leaves zone-spread pods pending in the round for want of limits; with the cap
// the finding's fix suggests, and on a pool capped at 32 vCPU that it does not fire on, Karpenter
// places every pod. The emulation leaves as many pending as Karpenter in each case.
func TestReservationFindingOnUpstream(t *testing.T) {
	s := analysis.New(catalog.Default())
	its := regionTypes(region)
	small := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("1Gi")}
	pods := simmodel.Pods([]simmodel.Workload{
		{Name: "web", Count: 40, Requests: small, ZoneSpread: 1},
		{Name: "api", Count: 10, Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("4Gi")}},
	})
	cpu200 := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200")}
	de := req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D", "E")
	finding := func(np *karpv1.NodePool) (findings.Finding, bool) {
		a := s.Analyze(analysis.NewPool(np), analysis.Options{Region: region})
		i := slices.IndexFunc(a.Findings, func(f findings.Finding) bool { return f.Code == findings.LimitsReservation })
		if i < 0 {
			return findings.Finding{}, false
		}
		return a.Findings[i], true
	}
	wide := nodePool("general", 0, cpu200, onDemand, de)
	f, ok := finding(wide)
	if !ok {
		t.Fatal("KRP119 not raised on the D/E pool limited to 200 vCPU")
	}
	m := regexp.MustCompile(`require (\S+) Lt (\d+)`).FindStringSubmatch(f.Fix)
	if m == nil {
		t.Fatalf("the fix suggests no cap: %s", f.Fix)
	}
	for _, tc := range []struct {
		name  string
		pool  *karpv1.NodePool
		fires bool
	}{
		{"wide", wide, true},
		{"suggested-cap", nodePool("general", 0, cpu200, onDemand, de, req(m[1], corev1.NodeSelectorOpLt, m[2])), false},
		{"32-vcpu", nodePool("general", 0, cpu200, onDemand, de, req("karpenter.azure.com/sku-cpu", corev1.NodeSelectorOpLt, "33")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, fires := finding(tc.pool); fires != tc.fires {
				t.Fatalf("KRP119 raised: %v, want %v", fires, tc.fires)
			}
			sc := scenario{name: tc.name, pools: []*karpv1.NodePool{tc.pool}, its: map[string][]*cloudprovider.InstanceType{tc.pool.Name: its}, pods: pods}
			up, err := upstreamDecision(sc)
			if err != nil {
				t.Fatal(err)
			}
			ours, err := emulatedDecision(sc)
			if err != nil {
				t.Fatal(err)
			}
			if (up.unschedulable > 0) != tc.fires {
				t.Errorf("Karpenter leaves %d of %d pods pending with %d NodeClaims; KRP119 raised: %v", up.unschedulable, len(pods), len(up.claims), tc.fires)
			}
			if ours.unschedulable != up.unschedulable {
				t.Errorf("the emulation leaves %d pods pending, Karpenter %d", ours.unschedulable, up.unschedulable)
			}
			t.Logf("%d NodeClaims, %d of %d pods pending", len(up.claims), up.unschedulable, len(pods))
		})
	}
}
