package karpenter

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// The memo's answers come from per-requirement bitsets ANDed together. They must equal the
// direct computation (otherCompat) for every instance type. That is cloud.IntersectsSingles
// on the instance type, and CompatibleWellKnownSingles on each group's offerings. The
// requirement sets are drawn from the catalog's own labels, with every operator, zones and
// capacity types.
func TestCompatMemoMatchesDirectComputation(t *testing.T) {
	for _, region := range []string{"westeurope", "eastus"} {
		res := aks.List(catalog.Default(), region, aks.NodeClass{}, aks.Cluster{})
		its := make([]*cloudprovider.InstanceType, len(res.InstanceTypes))
		for i, it := range res.InstanceTypes {
			its[i] = it.InstanceType
		}
		// Sizes whose offerings split zones and capacity types (and one unavailable), so that
		// a set can admit the size and none of its offerings.
		for i, zs := range [][2]string{{"1", "2"}, {"2", "3"}, {"1", "3"}} {
			base := its[i]
			it := &cloudprovider.InstanceType{Name: fmt.Sprintf("split-%d", i), Capacity: base.Capacity, Overhead: base.Overhead,
				Requirements: scheduling.NewRequirements(scheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, region+"-"+zs[0], region+"-"+zs[1]),
					scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot, karpv1.CapacityTypeOnDemand),
					scheduling.NewRequirement(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpIn, fmt.Sprintf("split-%d", i)))}
			for j, ct := range []string{karpv1.CapacityTypeSpot, karpv1.CapacityTypeOnDemand} {
				it.Offerings = append(it.Offerings, &cloudprovider.Offering{Available: i != 2 || j == 0, Price: 1,
					Requirements: scheduling.NewRequirements(scheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, region+"-"+zs[j]),
						scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, ct))})
			}
			// A label that is not well known is put on an offering, where a set without it
			// leaves it undefined. It is also excluding on another offering and on the size,
			// which makes both-excluding pairs.
			switch i {
			case 0:
				it.Offerings[0].Requirements.Add(scheduling.NewRequirement("example.com/rack", corev1.NodeSelectorOpIn, "r1"))
			case 1:
				it.Offerings[1].Requirements.Add(scheduling.NewRequirement("example.com/rack", corev1.NodeSelectorOpDoesNotExist))
			case 2:
				it.Requirements.Add(scheduling.NewRequirement("example.com/rack", corev1.NodeSelectorOpNotIn, "r2"))
			}
			its = append(its, it)
		}
		union := valueUnion(its)
		keys := []string{corev1.LabelTopologyZone, karpv1.CapacityTypeLabelKey, corev1.LabelArchStable, corev1.LabelOSStable,
			"karpenter.azure.com/sku-family", "karpenter.azure.com/sku-cpu", "karpenter.azure.com/sku-memory", corev1.LabelInstanceTypeStable,
			"karpenter.azure.com/sku-gpu-count", karpv1.NodePoolLabelKey, "example.com/team", "example.com/rack"}
		rng := rand.New(rand.NewPCG(7, 11))
		cache := newCompatCache(newCompatIndex([][]*cloudprovider.InstanceType{its}))
		var compatible, incompatible, noOffering int
		for round := range 80 {
			reqs := scheduling.NewRequirements()
			for _, key := range keys {
				if rng.IntN(3) != 0 {
					continue
				}
				vals := slices.Clone(union[key])
				if key == corev1.LabelTopologyZone || key == corev1.LabelInstanceTypeStable {
					vals = append(vals, region+"-1", region+"-2", region+"-3", "split-0", "split-1", "split-2")
				}
				if len(vals) == 0 {
					vals = []string{"a", "b"}
				}
				slices.Sort(vals)
				pick := func() []string {
					n := 1 + rng.IntN(min(3, len(vals)))
					out := make([]string, n)
					for i := range out {
						out[i] = vals[rng.IntN(len(vals))]
					}
					return out
				}
				switch rng.IntN(6) {
				case 0:
					reqs.Add(scheduling.NewRequirement(key, corev1.NodeSelectorOpIn, pick()...))
				case 1:
					reqs.Add(scheduling.NewRequirement(key, corev1.NodeSelectorOpNotIn, pick()...))
				case 2:
					reqs.Add(scheduling.NewRequirement(key, corev1.NodeSelectorOpExists))
				case 3:
					reqs.Add(scheduling.NewRequirement(key, corev1.NodeSelectorOpDoesNotExist))
				case 4:
					reqs.Add(scheduling.NewRequirement(key, corev1.NodeSelectorOpGt, fmt.Sprint(rng.IntN(64))))
				default:
					reqs.Add(scheduling.NewRequirement(key, corev1.NodeSelectorOpLt, fmt.Sprint(1+rng.IntN(96))))
				}
			}
			memo := cache.forReqs(reqs)
			direct := &reqMemo{}
			for _, it := range its {
				got, want := compatOf(memo, cache, it, reqs), direct.otherCompat(it, reqs)
				if got.compatible != want.compatible || got.exact != want.exact || len(got.allocatables) != len(want.allocatables) || !reflect.DeepEqual(got.vecs, want.vecs) {
					t.Fatalf("%s round %d, %s with %s: memo %+v, direct %+v", region, round, it.Name, reqs, got, want)
				}
				switch {
				case !got.compatible:
					incompatible++
				case len(got.allocatables) == 0:
					noOffering++
				default:
					compatible++
				}
				for i := range got.allocatables {
					if reflect.ValueOf(got.allocatables[i]).UnsafePointer() != reflect.ValueOf(want.allocatables[i]).UnsafePointer() {
						t.Fatalf("%s round %d, %s: allocatable %d differs", region, round, it.Name, i)
					}
				}
			}
		}
		if compatible == 0 || incompatible == 0 || noOffering == 0 {
			t.Errorf("%s: the drawn sets must give every answer: %d compatible, %d not, %d without an offering", region, compatible, incompatible, noOffering)
		}
	}
}
