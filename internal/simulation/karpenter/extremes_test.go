package karpenter

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

// costOfResult is the hourly cost of the nodes a result launches.
func costOfResult(r *Result) float64 {
	c := 0.0
	for _, nc := range r.NodeClaims {
		if nc.Launch != nil {
			c += nc.Launch.Offering.Price
		}
	}
	return c
}

// Extremes descends from the rounds it is given toward the cheapest and the dearest outcome.
// The daemon groups' order decides whether an amd64 DaemonSet's overhead is added to a pod's
// NodeClaim (TestDaemonOverheadOrderIsATie), and so whether it takes a size larger than the
// pod alone needs. From either outcome alone, the descent finds the other end. It stays
// within its budget and gives the same rounds on every call.
func TestExtremesDescendsTowardBothEnds(t *testing.T) {
	daemon := amd64DaemonSetPod()
	in := Input{NodePools: []*karpv1.NodePool{pool("general")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"general": westeurope()},
		Launchers: map[string]cloud.Launcher{"general": aks.NewCloud(nil)}, Pods: []*corev1.Pod{pod("app", 0, "1500m")}, DaemonSetPods: []*corev1.Pod{daemon}}
	first, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	set, err := Outcomes(in, first, 16, func(r *Result) string { return fmt.Sprint(costOfResult(r)) })
	if err != nil {
		t.Fatal(err)
	}
	if first.Ties != 1 || !set.Exhaustive || len(set.Results) != 2 || costOfResult(set.Results[0]) == costOfResult(set.Results[1]) {
		t.Fatalf("%d ties, %d outcomes (exhaustive %v): want 1 tie and 2 outcomes of different cost", first.Ties, len(set.Results), set.Exhaustive)
	}
	lo, hi := set.Results[0], set.Results[1]
	if costOfResult(lo) > costOfResult(hi) {
		lo, hi = hi, lo
	}
	for _, from := range set.Results {
		cheapest, dearest, runs, err := Extremes(in, []*Result{from}, 4, costOfResult)
		if err != nil {
			t.Fatal(err)
		}
		if runs > 2 {
			t.Fatalf("%d runs: one tie of 2 alternatives takes one re-run per descent", runs)
		}
		if costOfResult(cheapest) != costOfResult(lo) || costOfResult(dearest) != costOfResult(hi) {
			t.Fatalf("from %g: cheapest %g, dearest %g; want %g and %g", costOfResult(from), costOfResult(cheapest), costOfResult(dearest), costOfResult(lo), costOfResult(hi))
		}
		again, _, _, err := Extremes(in, []*Result{from}, 4, costOfResult)
		if err != nil || placementsOf(again) != placementsOf(cheapest) {
			t.Fatalf("a second call gave another cheapest round (%v)", err)
		}
	}
}
