package optimal

import (
	"slices"
	"testing"
)

// TestTrialMemo: a failed trial repeated on the same nodes and values is not run again and
// leaves the values the first run left; a kept trial, other values, another mode or a
// jittered mode run it again.
func TestTrialMemo(t *testing.T) {
	a, b, c := &simNode{}, &simNode{}, &simNode{}
	pk := &packing{nodes: []*simNode{a, b, c}, value: []float64{1, 2}}
	var memo trialMemo
	runs := 0
	fail := func() bool { runs++; pk.value[0] = 5; return false }
	keep := func() bool { runs++; return true }

	memo.try(pk, []*simNode{a, b}, 0, fail)
	pk.value[0] = 1
	if memo.try(pk, []*simNode{b, a}, 0, fail) || runs != 1 || pk.value[0] != 5 {
		t.Fatalf("repeat: runs %d, value %v; want 1 run and the value the first run left (5)", runs, pk.value)
	}
	for _, tc := range []struct {
		name string
		set  []*simNode
		mode int
	}{
		{"the values changed", []*simNode{a, b}, 0}, // value[0] is 5 now, 1 at the first run
		{"another set", []*simNode{a, c}, 0},
		{"another mode", []*simNode{a, b}, lpMode},
		{"a jittered mode", []*simNode{a, b}, 2},
	} {
		before := runs
		memo.try(pk, tc.set, tc.mode, fail)
		if runs != before+1 {
			t.Errorf("%s: the trial did not run", tc.name)
		}
	}
	before := runs
	memo.try(pk, []*simNode{a, b}, 2, fail)
	if runs != before+1 {
		t.Errorf("a jittered mode, repeated: the trial did not run")
	}
	memo.try(pk, []*simNode{a, c}, 1, keep)
	before = runs
	memo.try(pk, []*simNode{a, b}, lpMode, fail)
	if runs != before+1 {
		t.Errorf("after a kept trial: the trial did not run")
	}
	if !slices.Equal(pk.value, []float64{5, 2}) {
		t.Errorf("values %v, want [5 2]", pk.value)
	}
}
