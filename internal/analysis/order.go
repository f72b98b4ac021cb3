package analysis

import (
	"cmp"
	"slices"
	"strings"
)

// sortCandidates orders candidates by their cheapest offering, then by name. Prices are
// computed once and a permutation is sorted rather than the candidates themselves: recomputing
// prices in the comparator and moving whole candidates made sorting a region's ~700 candidates
// most of an analysis's time. The order is that of a stable sort by (price, name).
func sortCandidates(cs []Candidate) {
	prices := make([]float64, len(cs))
	perm := make([]int, len(cs))
	for i, c := range cs {
		prices[i] = c.Cheapest().Price
		perm[i] = i
	}
	slices.SortFunc(perm, func(a, b int) int {
		if prices[a] != prices[b] {
			return cmp.Compare(prices[a], prices[b])
		}
		if c := strings.Compare(cs[a].InstanceType.Name, cs[b].InstanceType.Name); c != 0 {
			return c
		}
		return cmp.Compare(a, b) // equal keys keep their input order, as a stable sort would
	})
	sorted := make([]Candidate, len(cs))
	for i, j := range perm {
		sorted[i] = cs[j]
	}
	copy(cs, sorted)
}
