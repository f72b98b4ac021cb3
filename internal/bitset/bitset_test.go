package bitset

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Every operation agrees with a plain set of ints, across word boundaries.
func TestSetAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		n := 1 + rng.IntN(200)
		a, b, keep := New(n), New(n), New(n)
		ma, mb, mk := map[int]bool{}, map[int]bool{}, map[int]bool{}
		for i := 0; i < n; i++ {
			if rng.IntN(3) == 0 {
				a.Add(i)
				ma[i] = true
			}
			if rng.IntN(3) == 0 {
				b.Add(i)
				mb[i] = true
			}
			if rng.IntN(2) == 0 {
				keep.Add(i)
				mk[i] = true
			}
		}
		inter := false
		for i := range ma {
			inter = inter || mb[i]
		}
		if a.Intersects(b) != inter || a.Any() != (len(ma) > 0) {
			t.Fatalf("round %d: Intersects %v Any %v, want %v %v", round, a.Intersects(b), a.Any(), inter, len(ma) > 0)
		}
		c := a.Clone()
		c.AndNot(b)
		d := a.Clone()
		d.AndNotMasked(b, keep)
		var gotC, gotD, wantC, wantD []int
		c.Each(func(i int) { gotC = append(gotC, i) })
		d.Each(func(i int) { gotD = append(gotD, i) })
		for i := 0; i < n; i++ {
			if a.Has(i) != ma[i] {
				t.Fatalf("round %d: Has(%d) = %v", round, i, a.Has(i))
			}
			if ma[i] && !mb[i] {
				wantC = append(wantC, i)
			}
			if ma[i] && (!mb[i] || mk[i]) {
				wantD = append(wantD, i)
			}
		}
		if !slices.Equal(gotC, wantC) || !slices.Equal(gotD, wantD) {
			t.Fatalf("round %d: AndNot %v want %v; AndNotMasked %v want %v", round, gotC, wantC, gotD, wantD)
		}
	}
}
