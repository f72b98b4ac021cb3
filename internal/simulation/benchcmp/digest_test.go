package benchcmp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"os"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// TestEmulationDigest hashes every decision the emulation makes over the seeded corpus (up to
// CORPUS_MAX_PODS pods a scenario, default 2,000) and the benchmark's profiles at every size:
// each NodeClaim's pool, pods in the order bound, final requirements, options in order,
// requests and launch (size, offering, zones), every pending pod's error text, and the ties
// met; for a scenario with ties, also every outcome of Outcomes with a budget of 4 runs (the
// re-runs share the round's memo). A speed change must leave the digest as it was:
//
//	EMULATION_DIGEST=print go test -run '^TestEmulationDigest$' -v ./internal/simulation/benchcmp/
//	EMULATION_DIGEST=<hex> go test -run '^TestEmulationDigest$' ./internal/simulation/benchcmp/
//
// EMULATION_DIGEST_OUT=FILE writes one hash per scenario, to find the one that changed.
// EMULATION_DIGEST_FIRST=1 hashes each scenario's first decision only, without its ties: a
// change to how ties are counted or walked must leave that digest as it was. It is skipped
// without EMULATION_DIGEST: a change to a rule changes the digest on purpose.
func TestEmulationDigest(t *testing.T) {
	want := os.Getenv("EMULATION_DIGEST")
	if want == "" {
		t.Skip("EMULATION_DIGEST not set (print, or the expected digest)")
	}
	firstOnly := os.Getenv("EMULATION_DIGEST_FIRST") != ""
	var scenarios []scenario
	maxPods := envInt("CORPUS_MAX_PODS", 2000)
	for i := range envInt("CORPUS", 200) {
		scenarios = append(scenarios, corpusScenario(1, i, maxPods, cachedRegionTypes))
	}
	its := cachedRegionTypes(region)
	for _, prof := range profiles {
		for _, n := range sizes {
			sc := scenario{name: fmt.Sprintf("%s/%d", prof.name, n), pools: prof.pools(), its: map[string][]*cloudprovider.InstanceType{}, pods: simmodel.Pods(workloads(seed, n))}
			for _, np := range sc.pools {
				sc.its[np.Name] = its
			}
			scenarios = append(scenarios, sc)
		}
	}
	total := sha256.New()
	var lines []string
	for _, sc := range scenarios {
		h := sha256.New()
		in := emulationInput(sc)
		first, err := karpenter.Solve(in)
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		if firstOnly {
			writeDecision(h, first)
		} else {
			writeResult(h, first)
		}
		if first.Ties > 0 && !firstOnly {
			set, err := karpenter.Outcomes(in, first, 4, func(r *karpenter.Result) string { return sc.decisionOf(r).signature() })
			if err != nil {
				t.Fatalf("%s: %v", sc.name, err)
			}
			fmt.Fprintf(h, "outcomes %d runs %d exhaustive %v\n", len(set.Results), set.Runs, set.Exhaustive)
			for _, r := range set.Results[1:] {
				writeResult(h, r)
			}
		}
		sum := hex.EncodeToString(h.Sum(nil))
		lines = append(lines, sc.name+" "+sum)
		total.Write([]byte(sum))
	}
	got := hex.EncodeToString(total.Sum(nil))
	if out := os.Getenv("EMULATION_DIGEST_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("emulation digest over %d scenarios: %s", len(scenarios), got)
	if want != "print" && want != got {
		t.Fatalf("emulation digest %s, want %s: a decision changed", got, want)
	}
}

// writeResult writes everything a decision says, in a fixed order.
func writeResult(h hash.Hash, r *karpenter.Result) {
	fmt.Fprintf(h, "ties %d\n", r.Ties)
	writeDecision(h, r)
}

// writeDecision writes the decision's NodeClaims and pending pods, without its ties.
func writeDecision(h hash.Hash, r *karpenter.Result) {
	for _, nc := range r.NodeClaims {
		fmt.Fprintf(h, "claim %s requests %s\n  reqs %s\n  pods", nc.NodePool, resources.String(nc.Requests), nc.Requirements)
		for _, p := range nc.Pods {
			fmt.Fprintf(h, " %s/%s", p.Namespace, p.Name)
		}
		h.Write([]byte("\n  options"))
		for _, it := range nc.InstanceTypeOptions {
			fmt.Fprintf(h, " %s", it.Name)
		}
		h.Write([]byte("\n"))
		if l := nc.Launch; l != nil {
			fmt.Fprintf(h, "  launch %s %s %s %g %v\n", l.InstanceType.Name, l.Offering.CapacityType(), l.Offering.Zone(), l.Offering.Price, l.Zones)
		}
	}
	var errs []string
	for p, err := range r.PodErrors {
		errs = append(errs, p.Namespace+"/"+p.Name+": "+err.Error())
	}
	sort.Strings(errs)
	for _, e := range errs {
		fmt.Fprintf(h, "pending %s\n", e)
	}
}
