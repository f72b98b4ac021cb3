package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/Azure/karpenter-provider-azure/pkg/providers/allocationstrategy"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

var dSizes = req("node.kubernetes.io/instance-type", corev1.NodeSelectorOpIn, "Standard_D2s_v5", "Standard_D4s_v5", "Standard_D8s_v5")

// A spot-only pool in westeurope is priced at the spot list price of the
// 2026-08-22 snapshot, not at on-demand, and is not marked estimated.
func TestSpotPoolUsesSpotListPrice(t *testing.T) {
	a := testSolver.Analyze(pool(someLimits, dSizes, req("karpenter.sh/capacity-type", corev1.NodeSelectorOpIn, "spot")), Options{Region: "westeurope"})
	s := a.Summary
	want, _ := catalog.Default().Quote("westeurope", "Standard_D2s_v5", catalog.Spot)
	if s.CheapestSKU != "Standard_D2s_v5" || s.CheapestCapacity != "spot" || s.CheapestHourlyPrice != want.Price ||
		s.PriceEstimated || s.PriceSource != "list 2026-08-22" {
		t.Errorf("spot pool in westeurope: %+v, want D2s_v5 spot at the list price %v", s, want.Price)
	}
	od, _ := catalog.Default().Quote("westeurope", "Standard_D2s_v5", catalog.OnDemand)
	if !(s.CheapestHourlyPrice < od.Price/3) {
		t.Errorf("spot %v is not the spot price (on-demand %v)", s.CheapestHourlyPrice, od.Price)
	}
}

// The same pool in eastus, which has no spot list prices, is marked estimated
// and says how.
func TestSpotPoolWithoutSpotListIsEstimated(t *testing.T) {
	a := testSolver.Analyze(pool(someLimits, dSizes, req("karpenter.sh/capacity-type", corev1.NodeSelectorOpIn, "spot")), Options{Region: "eastus"})
	s := a.Summary
	if s.CheapestCapacity != "spot" || !s.PriceEstimated || !strings.HasPrefix(s.PriceSource, "estimated: on-demand × ") {
		t.Errorf("spot pool in eastus: %+v, want a labelled estimate", s)
	}
}

// A pool with spot and on-demand (or no capacity-type requirement, which
// allows both) names spot as what Karpenter launches, shows both sides, and
// agrees with the Azure provider's own allocation strategy run on the same
// instance types.
func TestSpotAndOnDemandPoolLaunchesSpot(t *testing.T) {
	for name, p := range map[string]*Pool{
		"both":           pool(someLimits, dSizes, req("karpenter.sh/capacity-type", corev1.NodeSelectorOpIn, "spot", "on-demand")),
		"no requirement": pool(someLimits, dSizes),
	} {
		t.Run(name, func(t *testing.T) {
			a := testSolver.Analyze(p, Options{Region: "westeurope"})
			s := a.Summary
			if s.CheapestCapacity != "spot" {
				t.Fatalf("launches %s, want spot", s.CheapestCapacity)
			}
			spot, od := s.CapacityTypes["spot"], s.CapacityTypes["on-demand"]
			wantOD, _ := catalog.Default().Quote("westeurope", "Standard_D2s_v5", catalog.OnDemand)
			if spot.SKU != "Standard_D2s_v5" || spot.HourlyPrice != s.CheapestHourlyPrice || od.SKU != "Standard_D2s_v5" ||
				od.HourlyPrice != wantOD.Price || od.PriceSource != "list 2026-06-18" || spot.PriceSource != "list 2026-08-22" {
				t.Errorf("capacity types %+v", s.CapacityTypes)
			}
			if spot.MonthlyCostAtLimits == nil || od.MonthlyCostAtLimits == nil || !(*spot.MonthlyCostAtLimits < *od.MonthlyCostAtLimits) {
				t.Errorf("cost at limits per capacity type: spot %v, on-demand %v", spot.MonthlyCostAtLimits, od.MonthlyCostAtLimits)
			}

			// Upstream's allocation strategy on the same instance types and the pool's requirements.
			var its []*cloudprovider.InstanceType
			for _, c := range a.Admissible {
				its = append(its, c.InstanceType.InstanceType)
			}
			sel := allocationstrategy.NewProvider().Allocate(context.Background(), its, scheduling.NewRequirements(p.Requirements.Values()...))
			if sel == nil || sel.InstanceType.Name != s.CheapestSKU || sel.Offering.CapacityType() != s.CheapestCapacity || sel.Offering.Price != s.CheapestHourlyPrice {
				t.Errorf("upstream allocates %+v, the analysis says %s %s %v", sel, s.CheapestSKU, s.CheapestCapacity, s.CheapestHourlyPrice)
			}
		})
	}
}

// The cost at the limits comes from whichever limit binds, and is null — never
// 0 — when none does or when the limits cannot hold one node (issue 13 item 7).
func TestMonthlyCostAtLimits(t *testing.T) {
	gpuSizes := req("node.kubernetes.io/instance-type", corev1.NodeSelectorOpIn, "Standard_NC6s_v3", "Standard_NC12s_v3")
	onDemand := req("karpenter.sh/capacity-type", corev1.NodeSelectorOpIn, "on-demand")
	nc6, _ := catalog.Default().Quote("westeurope", "Standard_NC6s_v3", catalog.OnDemand)
	d2, _ := catalog.Default().Quote("westeurope", "Standard_D2s_v5", catalog.OnDemand)
	d2Only := req("node.kubernetes.io/instance-type", corev1.NodeSelectorOpIn, "Standard_D2s_v5")
	d2it := testSolver.Analyze(pool(nil, d2Only), Options{Region: "westeurope"}).Admissible[0].InstanceType
	d2MemGiB := d2it.Capacity.Memory().AsApproximateFloat64() / (1 << 30)
	limits := func(kv ...string) corev1.ResourceList {
		l := corev1.ResourceList{}
		for i := 0; i < len(kv); i += 2 {
			l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
		}
		return l
	}
	cases := []struct {
		name   string
		pool   *Pool
		want   float64
		isNull bool
	}{
		{"gpu limit on GPU sizes", pool(limits("nvidia.com/gpu", "4"), gpuSizes, onDemand), round(nc6.Price * 4 * HoursPerMonth), false},
		{"no limits", pool(nil, dSizes, onDemand), 0, true},
		{"gpu limit on sizes without GPUs", pool(limits("nvidia.com/gpu", "4"), dSizes, onDemand), 0, true},
		{"limits below one node", pool(limits("cpu", "1"), dSizes, onDemand), 0, true},
		// Karpenter compares limits with the capacity, which on AKS is the VM's memory less the 7.5 % reserve.
		{"memory binds before cpu", pool(limits("cpu", "64", "memory", "32Gi"), d2Only, onDemand), round(d2.Price * 32 / d2MemGiB * HoursPerMonth), false},
		{"nodes limit", pool(limits("nodes", "3"), dSizes, onDemand), round(d2.Price * 3 * HoursPerMonth), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := testSolver.Analyze(tc.pool, Options{Region: "westeurope"}).Summary
			got := s.MonthlyCostAtLimits
			switch {
			case tc.isNull && got != nil:
				t.Errorf("cost at limits %v, want null", *got)
			case !tc.isNull && (got == nil || *got != tc.want):
				t.Errorf("cost at limits %v, want %v", got, tc.want)
			}
		})
	}
}

// In a region whose zones the catalog lacks, every size is offered in the regional placement
// only, and a zone requirement is judged against the region's zones instead (zonesUnjudged): a
// pool pinned to a zone admits the same sizes and offerings as one that is not. The spot note
// judges the sizes' spot offerings the same way, so a pinned pool gets the same note.
func TestSpotSavingsNoteOnZonePinnedPoolWithoutZoneData(t *testing.T) {
	onDemand := req("karpenter.sh/capacity-type", corev1.NodeSelectorOpIn, "on-demand")
	family := req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D")
	// The first region without zone data where the unpinned pool gets the note: no region set
	// (the analysis is then over every region's sizes), or a catalog region.
	cat := catalog.Default()
	var o Options
	var free *findings.Finding
	for _, region := range append([]string{AnyRegion}, cat.Regions()...) {
		if rt := testSolver.types(region, aks.NodeClass{}); rt.zones != nil {
			continue
		}
		if free = findingOf(testSolver.Analyze(pool(someLimits, family, onDemand), Options{Region: region}), findings.SpotSavings); free != nil {
			o.Region = region
			break
		}
	}
	if free == nil {
		t.Fatal("no region without zone data has a spot savings note")
	}
	t.Logf("region %q (\"\" for every region)", o.Region)
	a := testSolver.Analyze(pool(someLimits, family, onDemand, req(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, "westeurope-1")), o)
	if len(a.Admissible) == 0 {
		t.Fatalf("the pinned pool admits no size: %v", codes(a))
	}
	pinned := findingOf(a, findings.SpotSavings)
	if pinned == nil {
		t.Fatalf("no spot savings note on the pool pinned to westeurope-1 in %s, though it admits %v: %v", o.Region, skuNames(a.Admissible), codes(a))
	}
	if pinned.Message != free.Message {
		t.Errorf("pinned pool's note:\n%s\nunpinned pool's:\n%s", pinned.Message, free.Message)
	}
}

// An on-demand-only pool gets a note with what the same sizes would cost as
// spot with on-demand fallback, stating the assumption; a pool that allows spot
// already, or whose nodes are do-not-disrupt, does not.
func TestSpotSavingsNote(t *testing.T) {
	onDemand := req("karpenter.sh/capacity-type", corev1.NodeSelectorOpIn, "on-demand")
	a := testSolver.Analyze(pool(someLimits, dSizes, onDemand), Options{Region: "westeurope"})
	var note *findings.Finding
	for i, f := range a.Findings {
		if f.Code == "KRP117" {
			note = &a.Findings[i]
		}
	}
	if note == nil {
		t.Fatalf("no spot savings note: %v", codes(a))
	}
	for _, want := range []string{
		"Karpenter would launch Standard_D2s_v5 as spot at USD 0.021252/h (list 2026-08-22) instead of Standard_D2s_v5 at USD 0.115/h (list 2026-06-18), 82 % less",
		"at the limits USD ",
		"This assumes the pool's pods may be interrupted: none carries karpenter.sh/do-not-disrupt",
	} {
		if !strings.Contains(note.Message, want) {
			t.Errorf("note lacks %q: %s", want, note.Message)
		}
	}
	if note.Severity().String() != "note" || note.Path != "spec.template.spec.requirements[1].values" {
		t.Errorf("note %+v", note)
	}
	both := testSolver.Analyze(pool(someLimits, dSizes), Options{Region: "westeurope"})
	marked := pool(someLimits, dSizes, onDemand)
	marked.Spec.Template.ObjectMeta.Annotations = map[string]string{"karpenter.sh/do-not-disrupt": "true"}
	system := pool(someLimits, dSizes, onDemand)
	system.Spec.Template.Spec.Taints = []corev1.Taint{{Key: "CriticalAddonsOnly", Value: "true", Effect: corev1.TaintEffectNoSchedule}}
	for name, a := range map[string]*Analysis{
		"spot allowed":             both,
		"do-not-disrupt":           testSolver.Analyze(marked, Options{Region: "westeurope"}),
		"system add-ons (no spot)": testSolver.Analyze(system, Options{Region: "westeurope"}),
	} {
		for _, f := range a.Findings {
			if f.Code == "KRP117" {
				t.Errorf("%s: unexpected note %s", name, f.Message)
			}
		}
	}
}
