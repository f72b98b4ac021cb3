package benchcmp

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// largeDisruptionCase is a westeurope cluster of 2,000 pods (the corpus's workload draw) on
// one on-demand pool consolidating underutilized nodes, scaled down to about half once settled.
func largeDisruptionCase() disruptionCase {
	sc := corpusScenario(7, 0, 2000, cachedRegionTypes)
	np := nodePool("general", 0, nil, onDemand)
	np.Spec.Disruption = karpv1.Disruption{ConsolidationPolicy: karpv1.ConsolidationPolicyWhenEmptyOrUnderutilized,
		ConsolidateAfter: karpv1.MustParseNillableDuration("0s"), Budgets: []karpv1.Budget{{Nodes: "10%"}}}
	sc.name, sc.pools, sc.daemons = "settle-2000-westeurope", []*karpv1.NodePool{np}, nil
	sc.its = map[string][]*cloudprovider.InstanceType{np.Name: cachedRegionTypes("westeurope")}
	rng := rand.New(rand.NewPCG(7, 1))
	sc.pods = corpusPods(rng, 2000, false, false, aksPodTerms)
	c := disruptionCase{name: sc.name, kind: "scale-down", sc: sc, horizon: 30 * time.Minute}
	c.afterPods = scaledDown(rng, sc.pods)
	return c
}

// TestDisruptionSettleCPU measures the emulation's process CPU time (GC included) to settle
// 2,000 pods from empty and again after a scale-down: the target is under 5 s. The suite
// prints the figure; with DISRUPTION_CPU_GATE=1 (make compare-upstream-disruption) a figure over
// the target fails.
func TestDisruptionSettleCPU(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2,000-pod settle")
	}
	c := largeDisruptionCase()
	before := processCPU()
	out, err := emulatedDisruption(c)
	if err != nil {
		t.Fatal(err)
	}
	cpu := processCPU() - before
	fmt.Printf("disruption: %d pods settled (emulation): %d -> %d nodes, %s, in %.2f s of CPU (wall %.2f s)\n",
		len(c.sc.pods), len(out.before), len(out.after), out.reasons(), cpu.Seconds(), out.elapsed.Seconds())
	if cpu.Seconds() >= 5 && os.Getenv("DISRUPTION_CPU_GATE") != "" {
		t.Errorf("settling %d pods took %.2f s of CPU, the target is under 5 s", len(c.sc.pods), cpu.Seconds())
	}
}

// BenchmarkDisruptionSettle2000 is TestDisruptionSettleCPU's case with its allocations: the
// emulation from empty to a steady state, then the scale-down to the next one.
//
//	go test -run '^$' -bench BenchmarkDisruptionSettle2000 -benchtime 1x ./internal/simulation/benchcmp/
func BenchmarkDisruptionSettle2000(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		// A fresh case per run: a run binds the case's pods.
		c := largeDisruptionCase()
		out, err := emulatedDisruption(c)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(out.after)), "nodes")
		b.ReportMetric(float64(len(out.disruptions)), "disruptions")
	}
}
