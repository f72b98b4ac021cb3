package benchcmp

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// BenchmarkProvisionRounds2000 runs the emulation's provisioning rounds (simulation.Provision)
// on the first seeded corpus scenarios of at least 1,500 pods (at most 2,000), each pool
// limited to 1.5 times the cpu its nodes have after the first round of the unlimited run, so
// that round 1 (charging the largest option) stops early and later rounds place the rest. It
// reports the pods and rounds of each.
func BenchmarkProvisionRounds2000(b *testing.B) {
	var picked []scenario
	for i := 0; i < 400 && len(picked) < 3; i++ {
		sc := corpusScenario(1, i, 2000, cachedRegionTypes)
		if len(sc.pods) < 1500 {
			continue
		}
		first, err := karpenter.Solve(emulationInput(sc))
		if err != nil {
			b.Fatal(err)
		}
		cpu := map[string]int64{}
		for _, nc := range first.NodeClaims {
			if nc.Launch != nil {
				cpu[nc.NodePool] += nc.Launch.InstanceType.Capacity.Cpu().Value()
			}
		}
		for i, np := range sc.pools {
			np = np.DeepCopy()
			np.Spec.Limits = karpv1.Limits{corev1.ResourceCPU: *resource.NewQuantity(cpu[np.Name]*3/2+1, resource.DecimalSI)}
			sc.pools[i] = np
		}
		p, err := simulation.Provision(emulationInput(sc), simulation.MaxRounds)
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Rounds) > 1 {
			picked = append(picked, sc)
		}
	}
	if len(picked) == 0 {
		b.Fatal("no corpus scenario of 1,500+ pods takes more than one round")
	}
	for _, sc := range picked {
		b.Run(sc.name, func(b *testing.B) {
			rounds := 0
			for b.Loop() {
				p, err := simulation.Provision(emulationInput(sc), simulation.MaxRounds)
				if err != nil {
					b.Fatal(err)
				}
				rounds = len(p.Rounds)
			}
			b.ReportMetric(float64(len(sc.pods)), "pods")
			b.ReportMetric(float64(rounds), "rounds")
		})
	}
}
