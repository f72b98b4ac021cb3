package clitool

// Nearest is the candidate a typo or two from s (the closest, the first of equals), or "".
func Nearest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := EditDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance of two short ASCII names.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
