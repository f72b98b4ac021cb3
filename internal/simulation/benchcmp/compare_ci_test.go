package benchcmp

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestCompareUpstreamUnseenAndLarge is the suite's share of what make compare-upstream checks
// beyond the 150-pod corpus: a scenario of each kind of the unseen corpus (plain directories,
// Helm output, Kustomize overlays, zone spreads; UNSEEN_ONLY=u01-dir,... names others) and a
// scenario of the seeded corpus of 1,000 pods or more as make compare-upstream draws it
// (seed1-028, 1,557 pods, 22 ties; LARGE_ONLY=10,28 names others: seed1-010 has 1,485 pods and
// 1,209 ties and takes minutes), with the same gate as TestCompareUpstream.
func TestCompareUpstreamUnseenAndLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Karpenter's scheduler")
	}
	all, err := loadScenarios("testdata/unseen")
	if err != nil {
		t.Fatal(err)
	}
	only := map[string]bool{}
	for _, n := range strings.Split(envString("UNSEEN_ONLY", "u01-dir,u15-dir,u23-helm,u28-kustomize,u33-zones"), ",") {
		only[n] = true
	}
	var scenarios []scenario
	for _, sc := range all {
		for dir := range only { // the name is the directory's and the region's
			if strings.HasPrefix(sc.name, dir+"-") {
				scenarios = append(scenarios, sc)
			}
		}
	}
	if len(scenarios) != len(only) {
		t.Fatalf("%d of the unseen scenarios %v found", len(scenarios), only)
	}
	for _, i := range slices.Sorted(maps.Keys(indices(envString("LARGE_ONLY", "28")))) {
		sc := corpusScenario(1, i, 2000, cachedRegionTypes)
		if len(sc.pods) < 1000 {
			t.Fatalf("%s has %d pods, not 1,000 or more", sc.name, len(sc.pods))
		}
		sc.seeded = true
		scenarios = append(scenarios, sc)
	}
	runComparison(t, scenarios, os.Stdout)
}

// envString reads a string setting of the comparator from the environment.
func envString(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
