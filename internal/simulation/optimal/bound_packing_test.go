package optimal

import (
	"math/rand/v2"
	"testing"
)

// TestBoundIgnoresThePacking: two packings of the same input that schedule every pod (of other
// variants, or not yet improved) get the same bounds, the LP over node types and the
// configuration LP's. The column generation's budget is cut to no pricing round, where the
// search stops before the LP's optimum, so that a master started from the packing's nodes
// would give a bound that depends on the packing: the test checks that it would, on some
// input, and that the bound does not.
func TestBoundIgnoresThePacking(t *testing.T) {
	saved := defaultCGBudget
	defer func() { defaultCGBudget = saved }()
	defaultCGBudget.iterations = 0
	compared, seededDiffer := 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		in := smallInput(rand.New(rand.NewPCG(seed, 11)))
		md := compile(testSolver, in.Region, in)
		first := md.pack(0)
		if !complete(first) {
			continue
		}
		// The packings of the other variants, and each variant's before it is improved.
		var others []*packing
		for v := range min(variants(md), 4) {
			if v > 0 {
				others = append(others, md.pack(v))
			}
			raw := md.newPacking()
			raw.variant.rng = rand.New(rand.NewPCG(seed, uint64(v)))
			raw.schedule()
			others = append(others, raw)
		}
		for v, other := range others {
			if !complete(other) {
				continue
			}
			compared++
			for _, config := range []bool{false, true} {
				md.configBound = config
				a, _ := md.lowerBound(first)
				b, _ := md.lowerBound(other)
				if a != b {
					t.Errorf("seed %d, packing %d (config %v): bound %v, and %v for the first", seed, v, config, b, a)
				}
			}
			if seededBound(md, first) != seededBound(md, other) {
				seededDiffer++
			}
		}
	}
	if compared < 10 {
		t.Fatalf("only %d pairs of complete packings compared", compared)
	}
	if seededDiffer == 0 {
		t.Errorf("on none of %d pairs would a master started from the packing's nodes give another bound: the test cannot tell", compared)
	}
	t.Logf("%d pairs of packings compared; a master seeded with the packing's nodes gives two bounds on %d", compared, seededDiffer)
}

func complete(pk *packing) bool {
	for _, r := range pk.rem {
		if r > 0 {
			return false
		}
	}
	return true
}

// seededBound is the configuration bound with the master started from the packing's nodes
// too, as repackFromLP starts its own.
func seededBound(md *model, pk *packing) float64 {
	groups := md.boundGroups(pk)
	cg := md.patternLP(groups, md.boundColumns(groups, md.pools), md.pools)
	if cg == nil {
		return 0
	}
	cg.seed(pk.nodes)
	if err := cg.run(defaultCGBudget, true); err != nil {
		return 0
	}
	return cg.certify(defaultCGBudget)
}
