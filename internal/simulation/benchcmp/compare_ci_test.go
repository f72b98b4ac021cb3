package benchcmp

import (
	"os"
	"strings"
	"testing"
)

// TestCompareUpstreamUnseenAndLarge is the suite's share of what make compare-upstream checks
// beyond the 150-pod corpus: a scenario of each kind of the unseen corpus (plain directories,
// Helm output, Kustomize overlays, zone spreads; UNSEEN_ONLY=u01-dir,... names others) and the
// first LARGE_SCENARIOS (default 2) scenarios of the seeded corpus of 1,000 pods or more (up to
// 2,000, as make compare-upstream draws them), with the same gate as TestCompareUpstream.
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
	large := 0
	for i := 0; i < 200 && large < envInt("LARGE_SCENARIOS", 2); i++ {
		if sc := corpusScenario(1, i, 2000, cachedRegionTypes); len(sc.pods) >= 1000 {
			sc.seeded = true
			scenarios = append(scenarios, sc)
			large++
		}
	}
	if large == 0 {
		t.Fatal("the seeded corpus has no scenario of 1,000 pods or more")
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
