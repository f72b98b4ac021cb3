package benchcmp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal"
)

// optimumDigestFile holds the committed digest of the optimum on the benchmark's scenarios.
const optimumDigestFile = "testdata/optimum.digest"

// TestOptimumDigest hashes the whole optimum (as JSON) on the benchmark's 15 scenarios, with
// the default bound and with the configuration bound. A refactor of the optimum must leave the
// digest as it was; a change to the packing changes it on purpose, and the new digest is
// committed with it (OPTIMUM_DIGEST=update). OPTIMUM_DIGEST_OUT=FILE writes one line per
// scenario (cost, bounds, nodes), to diff two versions:
//
//	go test -run '^TestOptimumDigest$' ./internal/simulation/benchcmp/
//	OPTIMUM_DIGEST=update go test -run '^TestOptimumDigest$' ./internal/simulation/benchcmp/
func TestOptimumDigest(t *testing.T) {
	s := analysis.New(catalog.Default())
	total := sha256.New()
	var lines []string
	for _, prof := range profiles {
		for _, n := range sizes {
			in := simmodel.SimulationInput{Region: region, Seed: seed, Workloads: simmodel.WorkloadsFromPods(simmodel.Pods(workloads(seed, n)))}
			for _, np := range prof.pools() {
				in.Pools = append(in.Pools, simmodel.SimPool{Pool: analysis.NewPool(np)})
			}
			for _, config := range []bool{false, true} {
				in.ConfigurationBound = config
				sim, err := optimal.Simulate(s, in)
				if err != nil {
					t.Fatalf("%s/%d: %v", prof.name, n, err)
				}
				b, err := json.Marshal(sim)
				if err != nil {
					t.Fatal(err)
				}
				total.Write(b)
				lines = append(lines, fmt.Sprintf("%s/%d config %v cost %.6f bound %.6f nodes %d %s", prof.name, n, config, sim.HourlyCost, sim.LowerBound, len(sim.Nodes), b))
			}
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
