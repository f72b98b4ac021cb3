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
// CORPUS_MAX_PODS pods a scenario, default 150 as in the suite's comparison; 2,000 for a speed
// change) and the benchmark's profiles at every size: each NodeClaim's pool, pods in the order
// bound, final requirements, options in order, requests and launch (size, offering, zones),
// every pending pod's error text, and the ties met; for a scenario with ties, also every
// outcome of Outcomes with a budget of 4 runs (the re-runs share the round's memo). A speed
// change must leave the digest as it was; a change to a rule changes it on purpose, and the new
// digests are committed with it (testdata/emulation.digest, one line per CORPUS_MAX_PODS,
// written by EMULATION_DIGEST=update):
//
//	go test -run '^TestEmulationDigest$' ./internal/simulation/benchcmp/
//	EMULATION_DIGEST=update CORPUS_MAX_PODS=2000 go test -run '^TestEmulationDigest$' ./internal/simulation/benchcmp/
//	EMULATION_DIGEST=<hex> go test -run '^TestEmulationDigest$' ./internal/simulation/benchcmp/
//
// EMULATION_DIGEST=print only prints it; EMULATION_DIGEST_OUT=FILE writes one hash per
// scenario, to find the one that changed. EMULATION_DIGEST_FIRST=1 hashes each scenario's first
// decision only, without its ties: a change to how ties are counted or walked must leave that
// digest as it was (it is not committed, so it needs print or a hex digest, as does CORPUS).
func TestEmulationDigest(t *testing.T) {
	want := os.Getenv("EMULATION_DIGEST")
	maxPods := envInt("CORPUS_MAX_PODS", 150)
	if (want == "" || want == "update") && (os.Getenv("EMULATION_DIGEST_FIRST") != "" || os.Getenv("CORPUS") != "") {
		t.Fatal("the committed digests are of the 200-scenario corpus with ties: set EMULATION_DIGEST=print or a hex digest")
	}
	committed, err := readDigests()
	if err != nil && want != "update" {
		t.Fatal(err)
	}
	if want == "" {
		if want = committed[maxPods]; want == "" {
			t.Fatalf("%s has no digest for CORPUS_MAX_PODS=%d: run EMULATION_DIGEST=update and commit it", digestFile, maxPods)
		}
	}
	firstOnly := os.Getenv("EMULATION_DIGEST_FIRST") != ""
	var scenarios []scenario
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
	switch want {
	case "print":
	case "update":
		if committed == nil {
			committed = map[int]string{}
		}
		committed[maxPods] = got
		if err := writeDigests(committed); err != nil {
			t.Fatal(err)
		}
	default:
		if want != got {
			t.Fatalf("emulation digest %s, want %s: a decision changed (a rule change: EMULATION_DIGEST=update and commit %s)", got, want, digestFile)
		}
	}
}

// digestFile holds the committed emulation digests of the seeded corpus: per line, the
// corpus' CORPUS_MAX_PODS and the digest.
const digestFile = "testdata/emulation.digest"

func readDigests() (map[int]string, error) {
	b, err := os.ReadFile(digestFile)
	if err != nil {
		return nil, err
	}
	out := map[int]string{}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var n int
		var hex string
		if _, err := fmt.Sscanf(line, "%d %s", &n, &hex); err != nil {
			return nil, fmt.Errorf("%s:%d: want \"<CORPUS_MAX_PODS> <digest>\": %v", digestFile, i+1, err)
		}
		out[n] = hex
	}
	return out, nil
}

func writeDigests(d map[int]string) error {
	var lines []string
	for n, hex := range d {
		lines = append(lines, fmt.Sprintf("%d %s", n, hex))
	}
	sort.Slice(lines, func(i, j int) bool {
		return len(lines[i]) < len(lines[j]) || len(lines[i]) == len(lines[j]) && lines[i] < lines[j]
	})
	return os.WriteFile(digestFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
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
