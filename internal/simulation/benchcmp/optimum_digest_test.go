package benchcmp

import (
	"fmt"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/optimumdigest"
)

// TestOptimumDigest hashes the whole optimum (as JSON) on the benchmark's 15 scenarios, with
// the default bound and with the configuration bound. A refactor of the optimum must leave the
// digest as it was; a change to the packing changes it on purpose, and the new digest is
// committed with it (see optimumdigest.Digest.Check):
//
//	go test -run '^TestOptimumDigest$' ./internal/simulation/benchcmp/
//	OPTIMUM_DIGEST=update go test -run '^TestOptimumDigest$' ./internal/simulation/benchcmp/
//	OPTIMUM_DIGEST_OUT=FILE go test -run '^TestOptimumDigest$' ./internal/simulation/benchcmp/
func TestOptimumDigest(t *testing.T) {
	s := analysis.New(catalog.Default())
	d := optimumdigest.New()
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
				d.Add(t, fmt.Sprintf("%s/%d config %v", prof.name, n, config), sim)
			}
		}
	}
	d.Check(t, "testdata/optimum.digest")
}
