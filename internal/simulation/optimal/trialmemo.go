package optimal

import (
	"encoding/binary"
	"math"
	"slices"
)

// trialMemo remembers the local search's trials that were not kept. A trial of modes 0, 1 and
// lpMode is a function of the pool's nodes, the pods' values (packing.value, which the
// packer rewrites and a trial does not restore) and its set and mode. The nodes change only
// when a trial is kept, so a trial repeated before that, with the same values, fails again
// and leaves the same values: the memo gives them back without re-packing. The jittered
// modes draw fresh seeds every time and are not remembered.
type trialMemo struct {
	kept   int                  // trials kept so far: the pool's nodes are those they left
	failed map[string][]float64 // by key: the values the trial left
	key    []byte               // scratch
}

// memoKey is the key of trying set with mode on pk as it is, or "" when the trial is not
// remembered.
func (tm *trialMemo) memoKey(pk *packing, set []*simNode, mode int) string {
	if mode != 0 && mode != 1 && mode != lpMode {
		return ""
	}
	k := binary.LittleEndian.AppendUint64(tm.key[:0], uint64(tm.kept))
	k = append(k, byte(mode))
	var pos []int
	for _, n := range set {
		pos = append(pos, slices.Index(pk.nodes, n))
	}
	slices.Sort(pos) // a trial does not depend on its set's order
	for _, i := range pos {
		k = binary.LittleEndian.AppendUint32(k, uint32(i))
	}
	for _, v := range pk.value {
		k = binary.LittleEndian.AppendUint64(k, math.Float64bits(v))
	}
	tm.key = k
	return string(k)
}

// try runs the trial of set with mode unless the memo knows it fails, and reports whether it
// was kept.
func (tm *trialMemo) try(pk *packing, set []*simNode, mode int, run func() bool) bool {
	key := tm.memoKey(pk, set, mode)
	if key != "" {
		if v, ok := tm.failed[key]; ok {
			copy(pk.value, v)
			return false
		}
	}
	if run() {
		tm.kept++
		return true
	}
	if key != "" {
		if tm.failed == nil {
			tm.failed = map[string][]float64{}
		}
		tm.failed[key] = slices.Clone(pk.value)
	}
	return false
}
