package simulation

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

func webPods(n int) []*corev1.Pod {
	var pods []*corev1.Pod
	for i := range n {
		p := pod(fmt.Sprintf("web-%d", i), "1", "2Gi")
		p.Annotations = map[string]string{workload.OwnerAnnotation: "Deployment/web"}
		pods = append(pods, p)
	}
	return pods
}

// Input.After runs the change from Before's steady state; without it the result has no
// after run, and the first round stays Before's either way.
func TestSimulateAfterRunsTheChange(t *testing.T) {
	before := Input{Region: "westeurope", NodePools: []map[string]any{pool(t, "")}, Pods: webPods(3), SteadyState: true}
	plain, err := Simulate(context.Background(), testSolver, before, Karpenter)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Settled == nil || plain.Settled.After != nil {
		t.Fatalf("without After: want a steady state before only, got %+v", plain.Settled)
	}
	after := before
	after.NodePools = []map[string]any{pool(t, "")}
	after.NodePools[0]["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["requirements"] = []any{
		map[string]any{"key": "karpenter.sh/capacity-type", "operator": "In", "values": []any{"on-demand"}},
		map[string]any{"key": "karpenter.azure.com/sku-family", "operator": "In", "values": []any{"E"}},
	}
	changed := before
	changed.After = &after
	res, err := Simulate(context.Background(), testSolver, changed, Karpenter)
	if err != nil {
		t.Fatal(err)
	}
	if res.Settled == nil || res.Settled.After == nil {
		t.Fatal("with After: no steady state after the change")
	}
	if got, want := res.Settled.After.Totals["Drifted"], len(res.Settled.Before.Nodes); got != want {
		t.Errorf("family D to E: %d nodes drifted, want every one of the %d", got, want)
	}
	for _, n := range res.Settled.After.Nodes {
		if !strings.HasPrefix(n.SKU, "Standard_E") {
			t.Errorf("after the change a %s node stays, want family E", n.SKU)
		}
	}
	if res.Karpenter.HourlyCost != plain.Karpenter.HourlyCost {
		t.Errorf("the first round is Before's: USD %.4f/h, want USD %.4f/h", res.Karpenter.HourlyCost, plain.Karpenter.HourlyCost)
	}
	var prefixed bool
	for _, a := range res.Assumptions {
		prefixed = prefixed || strings.HasPrefix(a, "after: ")
	}
	if !prefixed {
		t.Errorf("want the change's assumptions marked after:, got %q", res.Assumptions)
	}
}

// The optimal mode has no steady state to run the change to, and says so.
func TestSimulateAfterInOptimalModeIsSaid(t *testing.T) {
	before := Input{Region: "westeurope", NodePools: []map[string]any{pool(t, "")}, Pods: webPods(3), SteadyState: true}
	after := before
	before.After = &after
	res, err := Simulate(context.Background(), testSolver, before, Optimal)
	if err != nil {
		t.Fatal(err)
	}
	if res.Settled != nil || !strings.Contains(strings.Join(res.Skipped, "\n"), "only the karpenter mode runs it") {
		t.Errorf("want no steady state and the change skipped, got settled %v, skipped %q", res.Settled != nil, res.Skipped)
	}
}
