package simulation

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// BenchmarkSettle2000Pods is Karpenter run to its steady state (provisioning rounds, then the
// disruption controller) on 2,000 pods of ten Deployments with mixed requests, on a D-family
// on-demand pool (docs-notes/benchmarks.md; the target is under 5 s of CPU).
//
//	go test -run '^$' -bench BenchmarkSettle2000Pods -benchtime 3x ./internal/simulation/
func BenchmarkSettle2000Pods(b *testing.B) {
	np := pool(b, "")
	sizes := []struct{ cpu, mem string }{{"250m", "512Mi"}, {"500m", "1Gi"}, {"1", "2Gi"}, {"2", "4Gi"}, {"1", "8Gi"}}
	var ps []*corev1.Pod
	const n = 2000
	for i := range n {
		w := i * 10 / n
		p := pod(fmt.Sprintf("app-%d-%d", w, i), sizes[w%len(sizes)].cpu, sizes[w%len(sizes)].mem)
		p.Annotations = map[string]string{workload.OwnerAnnotation: fmt.Sprintf("Deployment/app-%d", w)}
		ps = append(ps, p)
	}
	prepared := func(np map[string]any) PredictionInput {
		res, err := Simulate(context.Background(), testSolver, Input{Region: "westeurope", NodePools: []map[string]any{np}}, Karpenter)
		if err != nil {
			b.Fatal(err)
		}
		return predictionInput(Input{Region: "westeurope", Pods: ps}, res.SimPools())
	}
	before := prepared(np)
	changed := pool(b, "")
	changed["spec"].(map[string]any)["template"].(map[string]any)["metadata"] = map[string]any{"labels": map[string]any{"team": "web"}}
	after := prepared(changed)
	for _, c := range []struct {
		name  string
		after *PredictionInput
	}{{"before", nil}, {"before-then-drift", &after}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				st, err := Settle(testSolver, SettleInput{Before: before, After: c.after})
				if err != nil {
					b.Fatal(err)
				}
				last := st.Before
				if st.After != nil {
					last = st.After
				}
				b.ReportMetric(float64(len(st.Before.Disruptions)+len(last.Disruptions)), "disruptions")
				b.ReportMetric(float64(len(last.Nodes)), "nodes")
				b.ReportMetric(last.TimeToSteady.Seconds(), "simulated-s")
			}
		})
	}
}
