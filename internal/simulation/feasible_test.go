package simulation

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// Karpenter's packing is feasible, so the optimum never costs more than it for the same pods:
// the D-family pools (sku-cpu Lt 33), 30 pods × 2 CPU / 4Gi on spot and on-demand,
// and 5 on on-demand alone, where the solver's own packing came to 4 nodes for USD 0.5557/h
// against Karpenter's 2 for USD 0.5441/h (and 3 for USD 0.6310/h against 1 for 0.5940). The
// optimal mode alone computes Karpenter's packing for that, without reporting it.
func TestOptimalNeverAboveKarpenter(t *testing.T) {
	for _, c := range []struct {
		name     string
		capacity []any
		replicas int
	}{
		{"spot and on-demand, 30 pods", []any{"spot", "on-demand"}, 30},
		{"on-demand, 5 pods", []any{"on-demand"}, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			np := pool(t, "")
			reqs := np["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
			reqs["requirements"] = []any{
				map[string]any{"key": "karpenter.sh/capacity-type", "operator": "In", "values": c.capacity},
				map[string]any{"key": "karpenter.azure.com/sku-family", "operator": "In", "values": []any{"D"}},
				map[string]any{"key": "karpenter.azure.com/sku-cpu", "operator": "Lt", "values": []any{"33"}},
			}
			var ps []*corev1.Pod
			for i := range c.replicas {
				ps = append(ps, pod(fmt.Sprintf("web-%d", i), "2", "4Gi"))
			}
			in := Input{Region: "westeurope", NodePools: []map[string]any{np}, Pods: ps}
			both, err := Simulate(context.Background(), testSolver, in, Both)
			if err != nil {
				t.Fatal(err)
			}
			k, o := both.Karpenter, both.Optimal
			if len(k.Unschedulable) > 0 || len(o.Unschedulable) > 0 || k.ScheduledPods != o.ScheduledPods {
				t.Fatalf("not the same pods placed: karpenter %d %v, optimal %d %v", k.ScheduledPods, k.Unschedulable, o.ScheduledPods, o.Unschedulable)
			}
			if o.HourlyCost > k.HourlyCost {
				t.Errorf("optimal USD %v/h (%d nodes) > Karpenter's USD %v/h (%d nodes)", o.HourlyCost, len(o.Nodes), k.HourlyCost, len(k.Nodes))
			}
			if o.LowerBound > o.HourlyCost || o.LowerBound <= 0 {
				t.Errorf("lower bound %v is not a bound of %v", o.LowerBound, o.HourlyCost)
			}
			alone, err := Simulate(context.Background(), testSolver, in, Optimal)
			if err != nil {
				t.Fatal(err)
			}
			if alone.Karpenter != nil || alone.Optimal.HourlyCost != o.HourlyCost {
				t.Errorf("optimal mode alone: karpenter reported %v, cost %v (both: %v)", alone.Karpenter != nil, alone.Optimal.HourlyCost, o.HourlyCost)
			}
		})
	}
}
