package simulation

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// BenchmarkSimulateSize is the growth of Karpenter's decision (the default mode) with the pods
// of a cluster, from 10,000 to the 150,000 of Kubernetes' limit (docs-notes/benchmarks.md): ten
// Deployments of equal size and mixed requests on a D-family on-demand pool without limits.
//
//	go test -run '^$' -bench BenchmarkSimulateSize -benchmem -benchtime 1x ./internal/simulation/
func BenchmarkSimulateSize(b *testing.B) {
	np := pool(b, "")
	sizes := []struct{ cpu, mem string }{{"250m", "512Mi"}, {"500m", "1Gi"}, {"1", "2Gi"}, {"2", "4Gi"}, {"1", "8Gi"}}
	for _, n := range []int{10000, 50000, 100000, 150000} {
		var ps []*corev1.Pod
		for i := range n {
			w := i * 10 / n // a workload's replicas come one after another, as the reader makes them
			p := pod(fmt.Sprintf("app-%d-%d", w, i), sizes[w%len(sizes)].cpu, sizes[w%len(sizes)].mem)
			p.Annotations = map[string]string{workload.OwnerAnnotation: fmt.Sprintf("Deployment/app-%d", w)}
			ps = append(ps, p)
		}
		in := Input{Region: "westeurope", NodePools: []map[string]any{np}, Pods: ps}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Simulate(context.Background(), testSolver, in, Karpenter); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
