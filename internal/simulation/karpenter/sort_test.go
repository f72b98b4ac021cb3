package karpenter

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// The scheduler sorts its NodeClaims with sort.Sort (byPodCount) where upstream uses
// sort.Slice. The two must give the same permutation, ties included. Otherwise the emulation
// would try NodeClaims in another order than Karpenter.
func TestByPodCountSortsAsSortSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 2000 {
		n := rng.IntN(80)
		claims := make([]*nodeClaim, n)
		for i := range claims {
			claims[i] = &nodeClaim{seq: i}
			for range rng.IntN(1 + round%7) {
				claims[i].pods = append(claims[i].pods, nil)
			}
		}
		a, b := slices.Clone(claims), slices.Clone(claims)
		sort.Slice(a, func(i, j int) bool { return len(a[i].pods) < len(a[j].pods) })
		sort.Sort(&byPodCount{claims: b})
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("round %d, %d claims: position %d holds claim %d, sort.Slice gives %d", round, n, i, b[i].seq, a[i].seq)
			}
		}
	}
}
