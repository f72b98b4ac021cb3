package simulation

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// settleInput is the test pool, with labels on its template, and pods, as Simulate prepares
// them.
func settleInput(t *testing.T, labels map[string]any, pods []*corev1.Pod) PredictionInput {
	t.Helper()
	np := pool(t, "")
	if labels != nil {
		np["spec"].(map[string]any)["template"].(map[string]any)["metadata"] = map[string]any{"labels": labels}
	}
	res, err := Simulate(context.Background(), testSolver, Input{Region: "westeurope", NodePools: []map[string]any{np}}, Karpenter)
	if err != nil {
		t.Fatal(err)
	}
	return predictionInput(Input{Region: "westeurope", Pods: pods}, res.SimPools())
}

// Before runs from an empty cluster to its steady state; After changes the pool's template (a
// label), which drifts every node Before made: After's steady state has replaced them all,
// each disruption Drifted, within the budget (10%, one node at a time).
func TestSettleBeforeAndAfterDriftsEveryNode(t *testing.T) {
	var pods []*corev1.Pod
	for i := range 6 {
		// One pod a node (hostname anti-affinity), so that Before makes six nodes.
		p := pod(fmt.Sprintf("web-%d", i), "3", "8Gi")
		p.Labels = map[string]string{"app": "web"}
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			TopologyKey: corev1.LabelHostname, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}}}
		pods = append(pods, p)
	}
	before := settleInput(t, nil, pods)
	after := settleInput(t, map[string]any{"team": "web"}, pods)
	if len(before.Pools) != 1 || len(after.Pools) != 1 {
		t.Fatalf("pools: %d before, %d after", len(before.Pools), len(after.Pools))
	}
	st, err := Settle(testSolver, SettleInput{Before: before, After: &after})
	if err != nil {
		t.Fatal(err)
	}
	b, a := st.Before, st.After
	if !b.Steady || b.Pending != 0 || len(b.Nodes) != 6 {
		t.Fatalf("before: steady %v, %d pending, %d nodes", b.Steady, b.Pending, len(b.Nodes))
	}
	if a == nil || !a.Steady || a.Pending != 0 {
		t.Fatalf("after: %+v", a)
	}
	if a.Totals["Drifted"] != len(b.Nodes) {
		t.Errorf("after: %v, want every one of the %d nodes Drifted", a.Totals, len(b.Nodes))
	}
	for i, d := range a.Disruptions {
		if d.Reason != "Drifted" || len(d.Removed) != 1 {
			t.Errorf("after disruption %d: %s removing %d, want Drifted removing 1", i, d.Reason, len(d.Removed))
		}
		if i > 0 && d.At <= a.Disruptions[i-1].At {
			t.Errorf("after disruption %d at %s, not after the previous at %s (one at a time)", i, d.At, a.Disruptions[i-1].At)
		}
	}
	if a.PodsEvicted != len(pods) {
		t.Errorf("after: %d pods evicted, want %d", a.PodsEvicted, len(pods))
	}
	if len(a.Blocked) != 0 {
		t.Errorf("after: blocked %+v, want none left drifted", a.Blocked)
	}
}

// A start state with a 16-cpu node running one small pod, under a budget of 0 for
// Underutilized: the node stays, and blocked[] says it is the budget.
func TestSettleBlockedByABudget(t *testing.T) {
	small := pod("small", "500m", "1Gi")
	before := settleInput(t, nil, []*corev1.Pod{small})
	np := before.Pools[0].Pool.NodePool
	np.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "0", Reasons: []karpv1.DisruptionReason{karpv1.DisruptionReasonUnderutilized}}}
	var start *disruption.Node
	for _, it := range aks.List(catalog.Default(), "westeurope", aks.NodeClass{}, aks.Cluster{}).InstanceTypes {
		if it.Name != "Standard_D16s_v5" {
			continue
		}
		for _, o := range it.Offerings {
			if o.CapacityType() == karpv1.CapacityTypeOnDemand && start == nil {
				ex := karpenter.LaunchedNode(&karpenter.NodeClaim{NodePool: np.Name, Requirements: scheduling.NewRequirements(),
					Launch: &karpenter.Launch{InstanceType: it.InstanceType, Offering: o}}, np, "big")
				ex.Pods = []*corev1.Pod{small}
				start = disruption.NewNode(*ex, np, SettleEpoch.Add(-time.Hour), SettleEpoch.Add(-time.Hour))
			}
		}
	}
	st, err := Settle(testSolver, SettleInput{Before: before, Start: []*disruption.Node{start}})
	if err != nil {
		t.Fatal(err)
	}
	b := st.Before
	if len(b.Disruptions) != 0 || len(b.Nodes) != 1 || b.Pending != 0 {
		t.Fatalf("%d disruptions, %d nodes, %d pending: want the big node kept with its pod", len(b.Disruptions), len(b.Nodes), b.Pending)
	}
	if len(b.Blocked) != 1 || b.Blocked[0].Node.Name != "big" || b.Blocked[0].Reason != disruption.BlockedBudget {
		t.Fatalf("blocked %+v, want big blocked by the budget", b.Blocked)
	}
}
