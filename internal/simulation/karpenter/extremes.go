package karpenter

// Extremes looks for the cheapest and the dearest outcome of the round's tie-breaks on
// purpose, where Enumerate's walk and Sample's draws find them only by chance. Its search is
// a greedy descent over the ties, once toward the lower cost and once toward the higher.
//
// Each descent starts from the most extreme round it is given. It visits that round's ties in
// the order met. At each it re-runs the round with each other alternative, every other tie
// taking the choice it had. A round better in the descent's direction becomes the start, and
// the descent goes on from the next tie. Ties after a changed one may come in another order.
// A script is then still a valid choice at each tie, so every round run is one Karpenter can
// make.
//
// rounds bounds each descent's re-runs. The descent is not exhaustive, and a small budget
// stops it before it has tried every tie: its ends are found on purpose, not proven.
func Extremes(in Input, from []*Result, rounds int, cost func(*Result) float64) (cheapest, dearest *Result, runs int, err error) {
	if len(from) == 0 {
		return nil, nil, 0, nil
	}
	rd := from[0].round
	if rd == nil {
		if rd, err = prepare(in); err != nil {
			return nil, nil, 0, err
		}
	}
	descend := func(sign float64) *Result {
		best := from[0]
		for _, r := range from[1:] {
			if sign*cost(r) < sign*cost(best) {
				best = r
			}
		}
		for i, spent := 0, 0; i < len(best.tieChoices) && spent < rounds; i++ {
			for k := 0; k < best.tieArities[i] && spent < rounds; k++ {
				if k == best.tieChoices[i] {
					continue
				}
				script := append([]int(nil), best.tieChoices...)
				script[i] = k
				r := rd.run(&scriptedTies{script: script})
				spent++
				runs++
				if sign*cost(r) < sign*cost(best) {
					best = r
					break
				}
			}
		}
		return best
	}
	return descend(1), descend(-1), runs, nil
}
