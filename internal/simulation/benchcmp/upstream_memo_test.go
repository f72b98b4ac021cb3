package benchcmp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/awslabs/operatorpkg/serrors"
	"github.com/samber/lo"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling"
	"sigs.k8s.io/karpenter/pkg/operator/options"
	kscheduling "sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// truncateInstanceTypes is the provisioner's Results.TruncateInstanceTypes (sigs.k8s.io/karpenter
// v1.14.1, pkg/controllers/provisioning/scheduling/scheduler.go) with one change that cannot
// change its result: InstanceTypes.OrderByPrice's comparator computes both options' cheapest
// compatible offering on every comparison (two scans of every offering's requirements per
// comparison, n·log n comparisons per NodeClaim over up to ~1,000 options), which here is
// computed once per option (orderByPrice). It was 30 % of the comparator's CPU time.
// TestTruncationMatchesUpstream checks it against upstream's on the same inputs.
func truncateInstanceTypes(ctx context.Context, r scheduling.Results, maxInstanceTypes int) scheduling.Results {
	var valid []*scheduling.NodeClaim
	for _, nc := range r.NewNodeClaims {
		var err error
		nc.InstanceTypeOptions, err = truncate(ctx, nc.InstanceTypeOptions, nc.Requirements, maxInstanceTypes)
		if err != nil {
			for _, pod := range nc.Pods {
				r.PodErrors[pod] = serrors.Wrap(fmt.Errorf("pod didn’t schedule because NodePool couldn’t meet minValues requirements, %w", err), "NodePool", klog.KRef("", nc.NodePoolName))
			}
			continue
		}
		valid = append(valid, nc)
	}
	r.NewNodeClaims = valid
	return r
}

// truncate is cloudprovider.InstanceTypes.Truncate with orderByPrice.
func truncate(ctx context.Context, its cloudprovider.InstanceTypes, reqs kscheduling.Requirements, maxItems int) (cloudprovider.InstanceTypes, error) {
	orderByPrice(its, reqs)
	truncated := lo.Slice(its, 0, maxItems)
	if reqs.HasMinValues() && options.FromContext(ctx).MinValuesPolicy != options.MinValuesPolicyBestEffort {
		if _, _, err := truncated.SatisfiesMinValues(reqs); err != nil {
			return its, fmt.Errorf("validating minValues, %w", err)
		}
	}
	return truncated, nil
}

// orderByPrice is cloudprovider.InstanceTypes.OrderByPrice with each option's price (the same
// loop as upstream's comparator) computed before the sort. The sort is the same sort.Slice on
// the same slice, and its comparator answers every comparison as upstream's does, so it makes
// the same swaps: equally priced options (which upstream's unstable sort leaves in an order
// that depends on the input's) end in the same order too.
func orderByPrice(its cloudprovider.InstanceTypes, reqs kscheduling.Requirements) {
	price := make(map[*cloudprovider.InstanceType]float64, len(its))
	for _, it := range its {
		p := math.MaxFloat64
		for _, of := range it.Offerings {
			if of.Available && reqs.IsCompatible(of.Requirements, kscheduling.AllowUndefinedWellKnownLabels) && of.Price < p {
				p = of.Price
			}
		}
		price[it] = p
	}
	sort.Slice(its, func(i, j int) bool { return price[its[i]] < price[its[j]] })
}

// TestTruncationMatchesUpstream runs the provisioner's truncation (cloudprovider.InstanceTypes.Truncate)
// and the comparator's memoised copy (truncate) on the same options and requirements: random
// subsets of a region's types in random order (Karpenter hands a NodeClaim's options over in its
// own order, and the unstable sort leaves equally priced ones in an order that depends on it),
// capacity types, zones and minValues that the 60 cheapest do or do not meet. The two must keep
// the same options in the same order and fail alike.
func TestTruncationMatchesUpstream(t *testing.T) {
	ctx := upstreamContext()
	rng := rand.New(rand.NewPCG(7, 11))
	tiedCuts, failed := 0, 0
	for _, src := range []struct {
		region, familyKey string
		types             func(string) []*cloudprovider.InstanceType
	}{
		{"westeurope", "karpenter.azure.com/sku-family", cachedRegionTypes},
		{"eastus", "karpenter.azure.com/sku-family", cachedRegionTypes},
		{"us-east-1", "karpenter.k8s.aws/instance-family", eksRegionTypes},
	} {
		all := src.types(src.region)
		zones := sets.New[string]()
		for _, it := range all {
			for _, o := range it.Offerings {
				if z := cloud.ZoneOf(o); z != "" {
					zones.Insert(z)
				}
			}
		}
		for c := range 12 {
			opts := slices.Clone(all)
			rng.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
			opts = opts[:1+rng.IntN(len(opts))]
			reqs := kscheduling.NewRequirements()
			switch rng.IntN(3) {
			case 0:
				reqs.Add(kscheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot))
			case 1:
				reqs.Add(kscheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeOnDemand))
			}
			if zs := sets.List(zones); len(zs) > 0 && rng.IntN(2) == 0 {
				reqs.Add(kscheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, zs[rng.IntN(len(zs))]))
			}
			if rng.IntN(3) == 0 {
				mv := []int{2, 10, 40, 61}[rng.IntN(4)]
				key := []string{corev1.LabelInstanceTypeStable, src.familyKey}[rng.IntN(2)]
				reqs.Add(kscheduling.NewRequirementWithFlexibility(key, corev1.NodeSelectorOpExists, &mv))
			}
			want, wantErr := cloudprovider.InstanceTypes(slices.Clone(opts)).Truncate(ctx, reqs, scheduling.MaxInstanceTypes)
			got, gotErr := truncate(ctx, slices.Clone(opts), reqs, scheduling.MaxInstanceTypes)
			name := fmt.Sprintf("%s case %d (%d options, %s)", src.region, c, len(opts), reqs)
			if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
				t.Fatalf("%s: error %v, upstream's %v", name, gotErr, wantErr)
			}
			if wantErr != nil {
				failed++
			}
			if w, g := names(want), names(got); !slices.Equal(w, g) {
				t.Fatalf("%s: options\n%v\nupstream's\n%v", name, g, w)
			}
			if cutTied(want, reqs) {
				tiedCuts++
			}
		}
	}
	// The order of equally priced options is what a copy of the sort could get wrong: the
	// cases must include such ties in what is kept, and minValues the truncation fails.
	if tiedCuts == 0 || failed == 0 {
		t.Fatalf("%d cases with equally priced options kept, %d failing minValues: the cases do not exercise the sort's ties or the failure", tiedCuts, failed)
	}
	t.Logf("%d cases kept equally priced options, %d failed minValues", tiedCuts, failed)
}

func names(its cloudprovider.InstanceTypes) []string {
	out := make([]string, len(its))
	for i, it := range its {
		out[i] = it.Name
	}
	return out
}

// cutTied reports whether two of the kept options have the same price under reqs.
func cutTied(its cloudprovider.InstanceTypes, reqs kscheduling.Requirements) bool {
	seen := map[float64]bool{}
	for _, it := range lo.Slice(its, 0, scheduling.MaxInstanceTypes) {
		p := math.MaxFloat64
		if o := it.Offerings.Available().Compatible(reqs); len(o) > 0 {
			p = o.Cheapest().Price
		}
		if seen[p] {
			return true
		}
		seen[p] = true
	}
	return false
}

// TestAzureCandidatesSkipOnlyMisfits checks the name shortcut of azureCandidates: over a
// region's types, NodeClaim requirements naming up to 80 of them (and a name no type has),
// with capacity types, zones and requests, it gives what testing every type gives, in order.
func TestAzureCandidatesSkipOnlyMisfits(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	found := 0
	for _, region := range []string{"westeurope", "eastus"} {
		all := cachedRegionTypes(region)
		if !namesThemselves(all) {
			t.Fatalf("%s: the types do not each name themselves alone: the shortcut is never taken", region)
		}
		for c := range 40 {
			picked := []string{"Standard_None"}
			for range 1 + rng.IntN(80) {
				picked = append(picked, all[rng.IntN(len(all))].Name)
			}
			reqs := kscheduling.NewRequirements(kscheduling.NewRequirement(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpIn, picked...))
			if rng.IntN(2) == 0 {
				reqs.Add(kscheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, []string{karpv1.CapacityTypeSpot, karpv1.CapacityTypeOnDemand}[rng.IntN(2)]))
			}
			requests := corev1.ResourceList{
				corev1.ResourceCPU:    *resource.NewMilliQuantity(int64(100+rng.IntN(32000)), resource.DecimalSI),
				corev1.ResourceMemory: *resource.NewQuantity(int64(1+rng.IntN(128))<<30, resource.BinarySI),
			}
			var want []*cloudprovider.InstanceType
			for _, it := range all {
				if azureFits(it, reqs, requests) {
					want = append(want, it)
				}
			}
			got := azureCandidates(all, reqs, requests)
			if !slices.Equal(names(got), names(want)) {
				t.Fatalf("%s case %d (%s, requests %v): candidates %v, every type tested %v", region, c, reqs, requests, names(got), names(want))
			}
			found += len(got)
		}
	}
	if found == 0 {
		t.Fatal("no case had a candidate: the cases test nothing")
	}
}
