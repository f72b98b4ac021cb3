package aks

import (
	"fmt"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// TestParityWithUpstreamGolden holds the derivation to the Azure provider's own
// output, SKU by SKU, for every region and node-class variant of the golden file.
func TestParityWithUpstreamGolden(t *testing.T) {
	g := loadGolden(t)
	cat, skusByRegion := fixtureCatalog(t)
	cluster := Cluster{NodeResourceGroup: goldenClusterLabel}

	for _, region := range sortedKeys(g.Regions) {
		gr := g.Regions[region]
		skus := skusByRegion[region]
		if len(skus) == 0 {
			t.Fatalf("no fixture SKUs for %s", region)
		}
		for _, variant := range sortedKeys(gr.Variants) {
			gv := gr.Variants[variant]
			res := ListSKUs(cat, region, skus, gv.NodeClassSpec.nodeClass(), cluster)
			got := map[string]*InstanceType{}
			for _, it := range res.InstanceTypes {
				got[it.Name] = it
			}
			want := map[string]goldenInstanceType{}
			for _, it := range gv.InstanceTypes {
				want[it.Name] = it
			}
			for _, s := range skus {
				t.Run(fmt.Sprintf("%s/%s/%s", region, variant, s.Name), func(t *testing.T) {
					w, wanted := want[s.Name]
					it, derived := got[s.Name]
					switch {
					case !wanted && !derived:
						return
					case !wanted:
						t.Fatalf("derived an instance type upstream drops")
					case !derived:
						t.Fatalf("dropped (%v), upstream keeps it", droppedReasons(res, s.Name))
					}
					if diff := cmp.Diff(normaliseGolden(w), render(it)); diff != "" {
						t.Errorf("mismatch (-upstream +derived):\n%s", diff)
					}
				})
			}
		}
		for _, s := range skus {
			t.Run(fmt.Sprintf("%s/filterReasons/%s", region, s.Name), func(t *testing.T) {
				want, ok := gr.FilterReasons[s.Name]
				if !ok {
					t.Fatalf("golden file has no filter verdict for %s", s.Name)
				}
				var got []string
				for _, r := range RegionReasons(region, s) {
					got = append(got, r.Description())
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("filter reasons (-upstream +derived):\n%s", diff)
				}
			})
		}
	}
}

// TestParityNodeClassDropsHaveReasons checks that SKUs a variant excludes carry
// node-class reasons, so findings can say which setting removed them.
func TestParityNodeClassDropsHaveReasons(t *testing.T) {
	g := loadGolden(t)
	cat, skusByRegion := fixtureCatalog(t)
	for _, region := range sortedKeys(g.Regions) {
		for _, variant := range sortedKeys(g.Regions[region].Variants) {
			gv := g.Regions[region].Variants[variant]
			res := ListSKUs(cat, region, skusByRegion[region], gv.NodeClassSpec.nodeClass(), Cluster{})
			for _, d := range res.Dropped {
				if len(RegionReasons(region, mustSKU(t, cat, d.SKU))) > 0 {
					continue
				}
				if len(d.Reasons) == 0 || !d.Reasons[0].NodeClassReason() {
					t.Errorf("%s/%s: %s dropped with reasons %v", region, variant, d.SKU, d.Reasons)
				}
			}
		}
	}
}

// TestKubeReservedGrid covers the reservation and allocatable arithmetic over
// vCPU 2..128 × memory 4..512 GiB, beyond the sizes the fixtures happen to have.
func TestKubeReservedGrid(t *testing.T) {
	g := loadGolden(t)
	for _, c := range g.Grid {
		t.Run(fmt.Sprintf("%dvcpu-%gGiB", c.VCPU, c.MemoryGiB), func(t *testing.T) {
			kr := KubeReserved(c.VCPU, c.MemoryGiB)
			capMem := MemoryWithoutOverhead(defaultVMMemoryOverhead, c.MemoryGiB)
			evict := EvictionThreshold()[corev1.ResourceMemory]
			allocMem := capMem.DeepCopy()
			allocMem.Sub(kr[corev1.ResourceMemory])
			allocMem.Sub(evict)
			allocCPU := resource.NewQuantity(c.VCPU, resource.DecimalSI)
			allocCPU.Sub(kr[corev1.ResourceCPU])
			got := gridCell{
				VCPU: c.VCPU, MemoryGiB: c.MemoryGiB,
				KubeReservedCPU:        qs(kr[corev1.ResourceCPU]),
				KubeReservedMemory:     qs(kr[corev1.ResourceMemory]),
				CapacityMemory:         capMem.String(),
				CapacityMemoryBytes:    capMem.Value(),
				AllocatableCPUMilli:    allocCPU.MilliValue(),
				AllocatableMemoryBytes: allocMem.Value(),
			}
			if diff := cmp.Diff(c, got); diff != "" {
				t.Errorf("(-upstream +derived):\n%s", diff)
			}
		})
	}
}

func qs(q resource.Quantity) string { return q.String() }

// render puts a derived instance type in the golden file's shape: requirement
// values sorted (upstream's are sets), offerings ordered by zone then capacity
// type, Ultra SSD options sorted.
func render(it *InstanceType) goldenInstanceType {
	out := goldenInstanceType{
		Name:              it.Name,
		Requirements:      renderRequirements(it.Requirements),
		Capacity:          renderList(it.Capacity),
		KubeReserved:      renderList(it.Overhead.KubeReserved),
		SystemReserved:    renderList(it.Overhead.SystemReserved),
		EvictionThreshold: renderList(it.Overhead.EvictionThreshold),
		Allocatable:       renderList(it.Allocatable()),
	}
	for _, o := range it.Offerings {
		ultra := o.Requirements.Get(v1beta1.LabelUltraSSD).Values()
		sort.Strings(ultra)
		out.Offerings = append(out.Offerings, goldenOffering{
			Zone:           o.Requirements.Get(corev1.LabelTopologyZone).Any(),
			CapacityType:   o.Requirements.Get(karpv1.CapacityTypeLabelKey).Any(),
			PlacementScope: o.Requirements.Get(v1beta1.LabelPlacementScope).Any(),
			UltraSSD:       ultra,
			Price:          o.Price,
			Available:      o.Available,
		})
	}
	return out
}

func renderRequirements(reqs scheduling.Requirements) map[string]goldenRequirement {
	out := map[string]goldenRequirement{}
	for key, r := range reqs {
		vals := r.Values()
		sort.Strings(vals)
		if len(vals) == 0 {
			vals = nil
		}
		out[key] = goldenRequirement{Operator: string(r.Operator()), Values: vals}
	}
	return out
}

func renderList(l corev1.ResourceList) map[string]string {
	out := map[string]string{}
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

func droppedReasons(res *Result, name string) []Reason {
	for _, d := range res.Dropped {
		if d.SKU == name {
			return d.Reasons
		}
	}
	return nil
}

// normaliseGolden sorts what upstream emitted in set order.
func normaliseGolden(g goldenInstanceType) goldenInstanceType {
	offers := make([]goldenOffering, len(g.Offerings))
	for i, o := range g.Offerings {
		o.UltraSSD = append([]string(nil), o.UltraSSD...)
		sort.Strings(o.UltraSSD)
		offers[i] = o
	}
	sort.SliceStable(offers, func(i, j int) bool {
		if offers[i].Zone != offers[j].Zone {
			return offers[i].Zone < offers[j].Zone
		}
		return offers[i].CapacityType < offers[j].CapacityType
	})
	g.Offerings = offers
	return g
}

func mustSKU(t *testing.T, cat *catalog.Catalog, name string) *catalog.SKU {
	t.Helper()
	s, ok := cat.SKU(name)
	if !ok {
		t.Fatalf("%s not in catalog", name)
	}
	return s
}
