package optimal

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/optimumdigest"
)

// TestOptimumDigest hashes the whole optimum (nodes, pods, prices, bound, unschedulable pods),
// as JSON, on 80 seeded random inputs (randomInput, seeds 1–40, counts ×1 and ×4). A refactor
// must leave the digest as it was; a change to the packing changes it on purpose, and the new
// digest is committed with it (see optimumdigest.Digest.Check):
//
//	go test -run '^TestOptimumDigest$' ./internal/simulation/optimal/
//	OPTIMUM_DIGEST=update go test -run '^TestOptimumDigest$' ./internal/simulation/optimal/
//	OPTIMUM_DIGEST_OUT=FILE go test -run '^TestOptimumDigest$' ./internal/simulation/optimal/
func TestOptimumDigest(t *testing.T) {
	d := optimumdigest.New()
	for seed := uint64(1); seed <= 40; seed++ {
		for _, scale := range []int{1, 4} {
			in := randomInput(rand.New(rand.NewPCG(seed, 11)))
			for i := range in.Workloads {
				in.Workloads[i].Count *= scale
			}
			sim, err := Simulate(testSolver, in)
			if err != nil {
				t.Fatalf("seed %d ×%d: %v", seed, scale, err)
			}
			d.Add(t, fmt.Sprintf("seed %d ×%d", seed, scale), sim)
		}
	}
	d.Check(t, "testdata/optimum.digest")
}
