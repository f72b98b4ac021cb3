package analysis

import (
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/util/sets"
)

// suggest returns the candidates closest to s (case-insensitive edit distance within a third
// of the length, at most 3), best first, at most three of them.
func suggest(s string, candidates []string) []string {
	type scored struct {
		c string
		d int
	}
	// Short values ("D", "E") are one edit from each other; only a case difference counts there.
	limit := min(3, len(s)/3)
	var out []scored
	ls := strings.ToLower(s)
	for _, c := range candidates {
		// The distance is at least the difference in length: skip the quadratic computation
		// (a value of a megabyte would need terabytes of table).
		if diff := len(c) - len(s); diff > limit || -diff > limit {
			continue
		}
		if d := distance(ls, strings.ToLower(c)); d <= limit {
			out = append(out, scored{c, d})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].d != out[j].d {
			return out[i].d < out[j].d
		}
		return out[i].c < out[j].c
	})
	res := make([]string, 0, 3)
	for i := 0; i < len(out) && i < 3; i++ {
		res = append(res, out[i].c)
	}
	return res
}

// distance is the optimal string alignment distance: Levenshtein plus transpositions of
// neighbours, the commonest typo ("arm46").
func distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func quoteAll(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = `"` + v + `"`
	}
	return strings.Join(q, ", ")
}

// SuggestLabelKey returns the well-known label keys nearest to a key of a well-known domain
// (karpenter.sh, karpenter.azure.com, kubernetes.io, ...) that is not itself well known: the
// key the author probably meant, as KRP106 suggests it. Nil for well-known keys and for keys
// of other domains.
func SuggestLabelKey(key string) []string {
	var domain bool
	wellKnown := sets.New[string]()
	for _, c := range builtin().All() {
		domain = domain || wellKnownDomain(c, key)
		wellKnown = wellKnown.Union(c.WellKnownLabels())
	}
	if wellKnown.Has(key) || !domain {
		return nil
	}
	return suggest(key, sortedSet(wellKnown))
}
