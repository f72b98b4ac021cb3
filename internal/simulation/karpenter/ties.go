package karpenter

import (
	"math/rand/v2"

	corev1 "k8s.io/api/core/v1"
)

// Karpenter's scheduler sometimes takes "the first" of equally ranked alternatives while
// ranging over a Go map. That choice is random, since Go randomises map iteration order on
// purpose. The emulation meets the same ties at the same steps. It resolves each with a
// TieBreaker and counts it. So a prediction can say how many random choices Karpenter makes,
// and what its other outcomes would be. The ties it knows:
//
//   - A topology spread over zones, or any non-hostname key, with several domains at the
//     lowest count. TopologyGroup.nextDomainTopologySpread ranges over t.domains, or over
//     nodeDomains.Values(), an unsorted list of a set.
//   - A pod affinity that starts a domain. nextDomainAffinity takes the first domain of a map
//     range.
//   - The order of a NodePool's daemon overhead groups. buildDaemonOverheadGroups returns
//     lo.Values of a map. The order decides the NodeClaim's daemon overhead in
//     addDaemonRequests when one group has no DaemonSet pod. resources.MinResources with an
//     empty list is empty, so the fold yields the overhead or nothing, by the order.
//
// Ties that change names only are not counted. Equally ranked offerings at launch are one
// kind: the Azure provider shuffles them, and Launch.Zones lists them. Equal-priced options
// are the other: their order only matters past MaxInstanceTypes options.

// TieBreaker resolves one tie among n > 1 equally ranked alternatives. They come in the
// emulation's order: domains by name, daemon groups by key. It returns the index taken.
// Index 0 is the emulation's own choice.
type TieBreaker interface {
	Choose(n int) int
}

// FirstTie takes the first alternative every time. It is the emulation's default: the first
// domain by name, daemon groups in key order.
type FirstTie struct{}

// Choose implements TieBreaker.
func (FirstTie) Choose(int) int { return 0 }

// RandomTies takes a uniformly random alternative from a seeded source. It is one sample of
// Karpenter's random choices.
type RandomTies struct{ rng *rand.Rand }

// NewRandomTies returns a RandomTies seeded with seed.
func NewRandomTies(seed uint64) *RandomTies {
	return &RandomTies{rng: rand.New(rand.NewPCG(seed, 0x7469657321))}
}

// Choose implements TieBreaker.
func (r *RandomTies) Choose(n int) int { return r.rng.IntN(n) }

// scriptedTies follows a script of choices, then takes the first.
type scriptedTies struct {
	script   []int
	position int
}

func (s *scriptedTies) Choose(n int) int {
	c := 0
	if s.position < len(s.script) {
		c = s.script[s.position]
	}
	s.position++
	return c
}

// ties is the scheduler's view of its TieBreaker. It records every tie it resolves, with its
// arity and the choice taken.
type ties struct {
	breaker TieBreaker
	// fixed is Input.FixedTies. met counts every tie met, those fixed answered included.
	fixed   func(index, n int) (int, bool)
	met     int
	arities []int
	choices []int
	// pod and claim say where the scheduler stands when a tie comes up. pod is the pod being
	// added. claim is the creation rank of the NodeClaim it is tried on, or the rank a new one
	// would get. A breaker that follows a known outcome (replayTies) reads them.
	pod   *corev1.Pod
	claim int
	// tries counts the scheduler's tries of a pod on a NodeClaim, in-flight or new. The ties of
	// one try share its number. So a breaker can tell the ties of a try that failed.
	tries int
	// reduce, when set, gives the indices of a tie's zones that are the first of their class
	// of interchangeable zones (symmetry.go). A domainBreaker then chooses among those only.
	reduce func(domains []string) []int
}

// try tells the ties that the scheduler is about to try the pod on the NodeClaim of creation
// rank claim. For a new NodeClaim, claim is the rank it would get.
func (t *ties) try(claim int) {
	t.claim = claim
	t.tries++
}

// choose resolves a tie among n alternatives (no tie when n < 2).
func (t *ties) choose(n int) int {
	if n < 2 {
		return 0
	}
	if c, ok := t.fixedChoice(n); ok {
		return c
	}
	c := 0
	if t.breaker != nil {
		c = t.breaker.Choose(n)
	}
	return t.record(n, c)
}

// chooseDomain resolves a tie among the domains of key (in name order) that a topology
// group found equally good for the pod at hand.
func (t *ties) chooseDomain(key string, domains []string) int {
	n := len(domains)
	if n < 2 {
		return 0
	}
	if c, ok := t.fixedChoice(n); ok {
		return c
	}
	if d, ok := t.breaker.(domainBreaker); ok {
		if t.reduce != nil && key == corev1.LabelTopologyZone {
			if reps := t.reduce(domains); len(reps) < n {
				if len(reps) == 1 { // every zone alike: no choice that can change the outcome
					return t.record(n, reps[0])
				}
				sub := make([]string, len(reps))
				for i, j := range reps {
					sub[i] = domains[j]
				}
				return t.record(n, reps[d.chooseDomain(t.pod, t.claim, t.tries, key, sub)])
			}
		}
		return t.record(n, d.chooseDomain(t.pod, t.claim, t.tries, key, domains))
	}
	return t.choose(n)
}

// fixedChoice is Input.FixedTies' answer to the tie at hand, and counts the tie as met.
func (t *ties) fixedChoice(n int) (int, bool) {
	index := t.met
	t.met++
	if t.fixed == nil {
		return 0, false
	}
	c, ok := t.fixed(index, n)
	if !ok {
		return 0, false
	}
	return min(max(c, 0), n-1), true
}

// zoneSymmetric is a TieBreaker that compares outcomes without their zones' names: it is
// offered one zone per class of interchangeable zones (symmetry.go).
type zoneSymmetric interface {
	moduloZones() bool
}

func (t *ties) record(n, c int) int {
	if c < 0 || c >= n {
		c = 0
	}
	t.arities = append(t.arities, n)
	t.choices = append(t.choices, c)
	return c
}

// placed tells a breaker that follows a known outcome where a pod was bound. false stops the
// round, since the outcome can no longer be reached.
func (t *ties) placed(p *corev1.Pod, n *nodeClaim) bool {
	if w, ok := t.breaker.(placementWatcher); ok {
		return w.placed(p, n, t.tries)
	}
	return true
}

// domainBreaker is a TieBreaker that looks at the domains of a topology tie.
type domainBreaker interface {
	chooseDomain(p *corev1.Pod, claim, try int, key string, domains []string) int
}

// placementWatcher is a TieBreaker that watches every binding of a pod to a NodeClaim. try is
// the number of the try that bound it.
type placementWatcher interface {
	placed(p *corev1.Pod, n *nodeClaim, try int) bool
}

// OutcomeSet is what Outcomes found.
type OutcomeSet struct {
	// Results are the distinct outcomes, the emulation's own first.
	Results []*Result
	// Runs is how many rounds were solved, the first included.
	Runs int
	// Exhaustive is true when every combination of choices was run.
	Exhaustive bool
}

// Outcomes re-runs the round with other tie-breaks than the emulation's. It returns the
// distinct outcomes in at most limit runs. first, Solve's result with the default
// tie-breaks, comes first. If the first run's ties allow at most limit runs, it runs every
// combination of choices. Otherwise it runs limit-1 seeded random samples of Karpenter's
// choices. key identifies an outcome: two outcomes with the same key count as one.
func Outcomes(in Input, first *Result, limit int, key func(*Result) string) (OutcomeSet, error) {
	set := OutcomeSet{Results: []*Result{first}, Runs: 1}
	if len(first.tieArities) == 0 {
		set.Exhaustive = true
		return set, nil
	}
	seen := map[string]bool{key(first): true}
	rd := first.round
	if rd == nil {
		var err error
		if rd, err = prepare(in); err != nil {
			return OutcomeSet{}, err
		}
	}
	run := func(tb TieBreaker) (*Result, error) {
		r := rd.run(tb)
		set.Runs++
		if k := key(r); !seen[k] {
			seen[k] = true
			set.Results = append(set.Results, r)
		}
		return r, nil
	}
	combos := 1
	for _, a := range first.tieArities {
		if combos *= a; combos > limit {
			break
		}
	}
	if combos <= limit {
		// An odometer over the choices. Advance the last tie that has an alternative left,
		// and take the first of every tie after it. Those ties' arities are known only once
		// run. Other choices can lead to other ties, so the walk may still exceed the limit.
		last := first
		for {
			i := len(last.tieChoices) - 1
			for i >= 0 && last.tieChoices[i]+1 >= last.tieArities[i] {
				i--
			}
			if i < 0 {
				set.Exhaustive = true
				return set, nil
			}
			if set.Runs >= limit {
				return set, nil
			}
			r, err := run(&scriptedTies{script: append(append([]int(nil), last.tieChoices[:i]...), last.tieChoices[i]+1)})
			if err != nil {
				return OutcomeSet{}, err
			}
			last = r
		}
	}
	for seed := uint64(1); set.Runs < limit; seed++ {
		if _, err := run(NewRandomTies(seed)); err != nil {
			return OutcomeSet{}, err
		}
	}
	return set, nil
}

// Sample runs the round n times with seeded random tie-breaks (RandomTies, seeds 1 to n). It
// returns every run's result, repeats included. These are n draws of Karpenter's random
// choices, each tie's alternatives equally likely. Karpenter takes the first of equal
// alternatives in a Go map range, and Go starts every range at a random position. The
// alternatives come from sets filled in an order that is itself not fixed. So none is
// favoured, and the emulation does not model a map's slot layout. first is the round's Solve
// result, whose prepared round is reused.
func Sample(in Input, first *Result, n int) ([]*Result, error) {
	rd := first.round
	if rd == nil {
		var err error
		if rd, err = prepare(in); err != nil {
			return nil, err
		}
	}
	out := make([]*Result, 0, n)
	for seed := uint64(1); len(out) < n; seed++ {
		out = append(out, rd.run(NewRandomTies(seed)))
	}
	return out, nil
}
