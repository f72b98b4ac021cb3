package simulation

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// The plan-time finding KRP119 (internal/analysis/reservation.go) says that a pool's limits let
// one provisioning round open fewer than three NodeClaims of any size. Its claim is checked
// here against Karpenter's decision as the emulation makes it (itself checked against
// Karpenter's scheduler by internal/simulation/benchcmp, which repeats this on upstream's own
// scheduler): where the finding fires, pods stay pending in the round for want of limits; with
// the cap its fix suggests, and on a pool it does not fire on, the same pods are all placed.
func TestReservationFindingAgreesWithPrediction(t *testing.T) {
	cpu200 := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200")}
	de := karpv1.NodeSelectorRequirementWithMinValues{Key: "karpenter.azure.com/sku-family", Operator: corev1.NodeSelectorOpIn, Values: []string{"D", "E"}}
	// The data-source example's web tier: a zone spread needs a NodeClaim in each zone in the round.
	web := pods("web", 40, "500m", "1Gi")
	web.ZoneSpread = 1
	api := pods("api", 10, "2", "4Gi")
	workload := simmodel.Pods([]simmodel.Workload{web, api})

	wide := testPool("general", 0, cpu200, nil, onDemandReq, de)
	f, ok := reservationFinding(wide)
	if !ok {
		t.Fatal("KRP119 not raised on a D/E pool limited to 200 vCPU, whose largest size has 192")
	}
	pending, reason := predictPending(t, wide, workload)
	if pending == 0 || !strings.Contains(reason, "exceed limits") {
		t.Fatalf("KRP119 fires (%s), but Karpenter leaves %d pods pending for the limits (%q)", f.Message, pending, reason)
	}

	t.Logf("wide: %d pending (%s)", pending, reason)
	capped := plusRequirement(wide, suggestedCap(t, f))
	if f, ok := reservationFinding(capped); ok {
		t.Fatalf("the suggested cap does not clear KRP119: %s", f.Message)
	}
	if pending, reason := predictPending(t, capped, workload); pending != 0 {
		t.Fatalf("with the suggested cap Karpenter still leaves %d pods pending (%s)", pending, reason)
	}

	// A pool the finding leaves alone: 32-vCPU sizes at most, six NodeClaims of any size per round.
	small := testPool("general", 0, cpu200, nil, onDemandReq, de,
		karpv1.NodeSelectorRequirementWithMinValues{Key: "karpenter.azure.com/sku-cpu", Operator: corev1.NodeSelectorOpLt, Values: []string{"33"}})
	if f, ok := reservationFinding(small); ok {
		t.Fatalf("KRP119 on a pool whose limit holds six of its largest nodes: %s", f.Message)
	}
	if pending, reason := predictPending(t, small, workload); pending != 0 {
		t.Fatalf("KRP119 does not fire, but Karpenter leaves %d pods pending (%s)", pending, reason)
	}
}

func reservationFinding(p simmodel.SimPool) (findings.Finding, bool) {
	a := testSolver.Analyze(p.Pool, analysis.Options{Region: "westeurope"})
	i := slices.IndexFunc(a.Findings, func(f findings.Finding) bool { return f.Code == findings.LimitsReservation })
	if i < 0 {
		return findings.Finding{}, false
	}
	return a.Findings[i], true
}

// suggestedCap reads the requirement the finding's fix suggests ("require KEY Lt N").
func suggestedCap(t *testing.T, f findings.Finding) karpv1.NodeSelectorRequirementWithMinValues {
	t.Helper()
	m := regexp.MustCompile(`require (\S+) Lt (\d+)`).FindStringSubmatch(f.Fix)
	if m == nil {
		t.Fatalf("the fix suggests no cap: %s", f.Fix)
	}
	return karpv1.NodeSelectorRequirementWithMinValues{Key: m[1], Operator: corev1.NodeSelectorOpLt, Values: []string{m[2]}}
}

func plusRequirement(p simmodel.SimPool, r karpv1.NodeSelectorRequirementWithMinValues) simmodel.SimPool {
	np := p.Pool.DeepCopy()
	np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements, r)
	return simmodel.SimPool{Pool: analysis.NewPool(np)}
}

// predictPending is how many pods Karpenter leaves pending in the round, and the first reason.
func predictPending(t *testing.T, p simmodel.SimPool, pods []*corev1.Pod) (int, string) {
	t.Helper()
	sim, err := Predict(testSolver, PredictionInput{Region: "westeurope", Pools: []simmodel.SimPool{p}, Pods: pods, NoTieRange: true})
	if err != nil {
		t.Fatal(err)
	}
	n, reason := 0, ""
	for _, u := range sim.Unschedulable {
		n += u.Count
		if reason == "" {
			reason = u.Reason
		}
	}
	if n+sim.ScheduledPods != len(pods) {
		t.Fatalf("%d scheduled and %d pending of %d pods", sim.ScheduledPods, n, len(pods))
	}
	return n, reason
}
