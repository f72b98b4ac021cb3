package benchcmp

import (
	"slices"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// TestEnumerateModuloZonesOnTheCorpus checks the walk modulo interchangeable zones against the
// full walk on the seeded corpus (SYMMETRY_CORPUS scenarios, default 60 in the suite, up to
// SYMMETRY_MAX_PODS pods, default 30): wherever the full walk is exhaustive within the budget,
// the walk modulo zones is too, with the same outcomes as the comparator tells them apart
// (pool, size, capacity type, pods per workload, pending; not zones). It also counts the
// scenarios whose walk only the reduction makes exhaustive.
//
//	SYMMETRY_CORPUS=200 SYMMETRY_MAX_PODS=40 go test -run TestEnumerateModuloZonesOnTheCorpus -v -timeout 60m ./internal/simulation/benchcmp/
func TestEnumerateModuloZonesOnTheCorpus(t *testing.T) {
	maxPods := envInt("SYMMETRY_MAX_PODS", 30)
	// A prediction's budget (simulation.enumerationBudget below 2,500 pods: 64 rounds' worth)
	// times SYMMETRY_BUDGET_FACTOR (default 4), so that the full walk finishes where it can.
	factor := envInt("SYMMETRY_BUDGET_FACTOR", 4)
	var tied, both, onlyModulo, neither, fullRuns, modRuns int
	for i := range envInt("SYMMETRY_CORPUS", 60) {
		sc := corpusScenario(1, i, maxPods, cachedRegionTypes)
		in := emulationInput(sc)
		first, err := karpenter.Solve(in)
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		if first.Ties == 0 {
			continue
		}
		tied++
		key := func(r *karpenter.Result) string { return sc.decisionOf(r).signature() }
		budget := factor * 64 * len(sc.pods)
		all, err := karpenter.Enumerate(in, first, budget, key)
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		mod, err := karpenter.EnumerateModuloZones(in, first, budget, key)
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		switch {
		case all.Exhaustive && mod.Exhaustive:
			both++
			fullRuns += all.Runs
			modRuns += mod.Runs
			if !slices.Equal(outcomeKeys(all, key), outcomeKeys(mod, key)) {
				t.Errorf("%s: the full walk found %d outcomes, the walk modulo zones %d: %v\n%v", sc.name, len(all.Results), len(mod.Results), outcomeKeys(all, key), outcomeKeys(mod, key))
			}
		case all.Exhaustive:
			t.Errorf("%s: the full walk is exhaustive in %d rounds, the walk modulo zones is not in %d", sc.name, all.Runs, mod.Runs)
		case mod.Exhaustive:
			onlyModulo++
			// Every outcome the partial full walk found is one of the reduced walk's.
			for _, k := range outcomeKeys(all, key) {
				if !slices.Contains(outcomeKeys(mod, key), k) {
					t.Errorf("%s: the full walk found an outcome the exhaustive walk modulo zones did not: %s", sc.name, k)
				}
			}
		default:
			neither++
		}
	}
	t.Logf("%d scenarios with ties (up to %d pods): both walks exhaustive in %d (%d rounds in all, %d modulo zones), only modulo zones in %d, neither in %d",
		tied, maxPods, both, fullRuns, modRuns, onlyModulo, neither)
}

func outcomeKeys(s karpenter.OutcomeSet, key func(*karpenter.Result) string) []string {
	var out []string
	for _, r := range s.Results {
		out = append(out, key(r))
	}
	slices.Sort(out)
	return out
}
