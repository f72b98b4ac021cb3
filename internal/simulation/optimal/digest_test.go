package optimal

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// optimumDigestFile holds the committed digest of the optimum on the seeded random inputs.
const optimumDigestFile = "testdata/optimum.digest"

// TestOptimumDigest hashes the whole optimum (nodes, pods, prices, bound, unschedulable pods),
// as JSON, on 80 seeded random inputs (randomInput, seeds 1–40, counts ×1 and ×4). A refactor
// must leave the digest as it was; a change to the packing changes it on purpose, and the new
// digest is committed with it (OPTIMUM_DIGEST=update). OPTIMUM_DIGEST_OUT=FILE writes one line
// per input (its cost, bound and nodes), to diff two versions:
//
//	go test -run '^TestOptimumDigest$' ./internal/simulation/optimal/
//	OPTIMUM_DIGEST=update go test -run '^TestOptimumDigest$' ./internal/simulation/optimal/
func TestOptimumDigest(t *testing.T) {
	total := sha256.New()
	var lines []string
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
			b, err := json.Marshal(sim)
			if err != nil {
				t.Fatal(err)
			}
			total.Write(b)
			lines = append(lines, fmt.Sprintf("seed %d ×%d cost %.6f bound %.6f nodes %d %s", seed, scale, sim.HourlyCost, sim.LowerBound, len(sim.Nodes), b))
		}
	}
	got := hex.EncodeToString(total.Sum(nil))
	if out := os.Getenv("OPTIMUM_DIGEST_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if os.Getenv("OPTIMUM_DIGEST") == "update" {
		if err := os.WriteFile(optimumDigestFile, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(optimumDigestFile)
	if err != nil {
		t.Fatalf("%v: run OPTIMUM_DIGEST=update and commit %s", err, optimumDigestFile)
	}
	if want := strings.TrimSpace(string(b)); want != got {
		t.Fatalf("optimum digest %s, want %s (%s): an optimum changed; a deliberate change runs OPTIMUM_DIGEST=update", got, want, optimumDigestFile)
	}
}
