package simulation

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// TestZonePinnedPoolInAZonalRegion (issue 18): the embedded catalog lists no size's zones in
// westeurope. A pool pinned to westeurope-1 got no node in Karpenter's emulation (every size
// was offered regionally only, in zone "0") while the requirement analysis admitted hundreds,
// and the optimum placed its pods in zone "0", which the pool excludes. Now both modes give it
// nodes, each in westeurope-1 and each labelled as an assumed zone, and the assumptions say so
// per mode.
func TestZonePinnedPoolInAZonalRegion(t *testing.T) {
	pinned := pool(t, "        - {key: topology.kubernetes.io/zone, operator: In, values: [westeurope-1]}")
	var pods []*corev1.Pod
	for i := range 6 {
		pods = append(pods, pod(fmt.Sprintf("web-%d", i), "1", "2Gi"))
	}
	res, err := Simulate(context.Background(), testSolver, Input{Region: "westeurope", NodePools: []map[string]any{pinned}, Pods: pods}, Both)
	if err != nil {
		t.Fatal(err)
	}
	for _, sim := range []*simmodel.Simulation{res.Karpenter, res.Optimal} {
		if len(sim.Nodes) == 0 || sim.ScheduledPods != 6 || len(sim.Unschedulable) != 0 {
			t.Errorf("%s: %d nodes, %d pods scheduled, pending %+v; want all 6 on westeurope-1", sim.Method, len(sim.Nodes), sim.ScheduledPods, sim.Unschedulable)
			continue
		}
		for _, n := range sim.Nodes {
			if n.Zone != "westeurope-1" || !n.ZoneAssumed {
				t.Errorf("%s: %s in zone %q (assumed %v), want westeurope-1, assumed", sim.Method, n.SKU, n.Zone, n.ZoneAssumed)
			}
		}
		i := slices.IndexFunc(res.Assumptions, func(a string) bool {
			return strings.HasPrefix(a, sim.Method+": ") && strings.Contains(a, "zones ASSUMED") && strings.Contains(a, sim.Nodes[0].SKU)
		})
		if i < 0 {
			t.Errorf("%s: no assumption names the assumed zone of %s: %q", sim.Method, sim.Nodes[0].SKU, res.Assumptions)
		}
	}
}

// TestLimitsHoldPodsBackForTheRound: a zone spread on a wide pool makes one NodeClaim per zone,
// and Karpenter charges each against the limits with the largest size it may still become
// (the D family's 192 vCPU of a 200 vCPU limit), so the third NodeClaim exceeds them although
// the sizes launched are far below the limit. That is Karpenter's first round (the comparator
// runs its scheduler on the same input), and the pending pods' reason says that a later round
// may place them rather than letting them read as never schedulable.
func TestLimitsHoldPodsBackForTheRound(t *testing.T) {
	family := karpv1.NodeSelectorRequirementWithMinValues{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpIn, Values: []string{"D"}}
	w := pods("web", 6, "1", "2Gi")
	w.ZoneSpread = 1
	got, err := Predict(testSolver, PredictionInput{Region: "westeurope", NoTieRange: true,
		Pools: []simmodel.SimPool{testPool("general", 0, corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200")}, nil, onDemandReq, family)},
		Pods:  simmodel.Pods([]simmodel.Workload{w})})
	if err != nil {
		t.Fatal(err)
	}
	launched := int64(0)
	for _, n := range got.Nodes {
		launched += n.Allocatable.Cpu().Value()
	}
	if len(got.Unschedulable) != 1 || launched >= 200 {
		t.Fatalf("pending %+v with %d vCPU launched; want pods held back by the limits' reservation, far below the limit", got.Unschedulable, launched)
	}
	if r := got.Unschedulable[0].Reason; !strings.Contains(r, limitsExceeded) || !strings.Contains(r, "a later round") {
		t.Errorf("reason %q: want Karpenter's and that it holds for this round", r)
	}
}
