package bitset

import "math/bits"

// Set holds the integers 0..n-1 of the n it was made for.
type Set []uint64

// New returns an empty set for the integers 0..n-1.
func New(n int) Set { return make(Set, (n+63)/64) }

// Clone returns a copy.
func (b Set) Clone() Set { return append(Set(nil), b...) }

// Any reports whether the set has a member.
func (b Set) Any() bool {
	for _, w := range b {
		if w != 0 {
			return true
		}
	}
	return false
}

// Intersects reports whether the sets share a member.
func (b Set) Intersects(o Set) bool {
	for i := range b {
		if b[i]&o[i] != 0 {
			return true
		}
	}
	return false
}

// Add puts i in the set.
func (b Set) Add(i int) { b[i/64] |= 1 << (uint(i) % 64) }

// Has reports whether i is in the set.
func (b Set) Has(i int) bool { return b[i/64]&(1<<(uint(i)%64)) != 0 }

// AndNot removes o's members.
func (b Set) AndNot(o Set) {
	for i := range b {
		b[i] &^= o[i]
	}
}

// AndNotMasked removes o's members except those in keep.
func (b Set) AndNotMasked(o, keep Set) {
	for i := range b {
		b[i] &^= o[i] &^ keep[i]
	}
}

// Each calls f for every member in increasing order.
func (b Set) Each(f func(int)) {
	for w, word := range b {
		for word != 0 {
			f(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
}
