package benchcmp

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// roundsCase is a provisioning run both sides take from the same start: the scenario's pools,
// instance types and DaemonSets, the nodes already there and the pods pending.
type roundsCase struct {
	name  string
	sc    scenario
	nodes []karpenter.ExistingNode
	pods  []*corev1.Pod
}

// roundsRun is one side's run: each round's outcome as the comparator compares it, and the
// hourly cost of the nodes the rounds launched.
type roundsRun struct {
	rounds []string
	cost   float64
	ties   bool
}

// TestCompareUpstreamRounds is the comparator of provisioning rounds. Each case runs on both
// sides until a round places nothing (at most simulation.MaxRounds): the emulation with
// simulation.Provision, Karpenter with its own scheduler each round on a cluster state
// holding the nodes the rounds before launched (state nodes from their Node objects and bound
// pods, as its provisioner passes them), each side on its own launches. A round's outcome is
// its launched NodeClaims (pool, size, capacity type, pods per workload), the pods it bound
// to each existing node and the number left pending. The cases are the seeded corpus's
// scenarios where the first round leaves pods pending (limits charged at the largest option,
// pods no pool takes), and the same scenarios scaled up on a running cluster: the
// emulation's first-round nodes as existing nodes, and a second batch of the pods. It prints
// one line per case and ends with
//
//	provisioned: N of M runs with the same nodes after the last round, max cost difference X%
//	rounds: K of L rounds identical; of the runs that differ, T met ties Karpenter breaks at random, R did not
//
// ROUNDS_CORPUS scenarios (default 12, in the suite) of at most CORPUS_MAX_PODS pods (default 150) are
// drawn with CORPUS_SEED; make compare-upstream-rounds runs 200 of up to 500. It fails when a
// run differs where the emulation met no tie Karpenter breaks at random (a rule, not chance).
func TestCompareUpstreamRounds(t *testing.T) {
	seed := uint64(envInt("CORPUS_SEED", 1))
	maxPods := envInt("CORPUS_MAX_PODS", 150)
	var cases []roundsCase
	for i := range envInt("ROUNDS_CORPUS", 12) {
		sc := corpusScenario(seed, i, maxPods, cachedRegionTypes)
		first, err := karpenter.Solve(emulationInput(sc))
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		if len(first.PodErrors) > 0 {
			cases = append(cases, roundsCase{name: sc.name, sc: sc, pods: sc.pods})
		}
		if _, nodes, _ := simulation.AfterRound(0, nil, sc.pods, poolsByName(sc.pools), first); len(nodes) > 0 {
			cases = append(cases, roundsCase{name: sc.name + "+scale-up", sc: sc, nodes: nodes, pods: secondBatch(sc.pods)})
		}
	}
	var runs, same, rounds, sameRounds, ruleDiffers, tied int
	maxDiff := 0.0
	for _, c := range cases {
		ours, err := emulatedRounds(c)
		if err != nil {
			t.Fatalf("%s: emulation: %v", c.name, err)
		}
		up, err := upstreamRounds(c)
		if err != nil {
			t.Fatalf("%s: Karpenter: %v", c.name, err)
		}
		runs++
		n := max(len(ours.rounds), len(up.rounds))
		rounds += n
		identical := len(ours.rounds) == len(up.rounds)
		first := -1
		for r := range n {
			if r < len(ours.rounds) && r < len(up.rounds) && ours.rounds[r] == up.rounds[r] {
				sameRounds++
				continue
			}
			identical = false
			if first < 0 {
				first = r
			}
		}
		diff := 0.0
		if up.cost > 0 {
			diff = math.Abs(ours.cost-up.cost) / up.cost
		}
		maxDiff = max(maxDiff, diff)
		verdict := "identical"
		if identical {
			same++
		} else {
			verdict = fmt.Sprintf("differs from round %d", first+1)
			if !ours.ties && randomChoice(c.sc) == "" {
				ruleDiffers++
				verdict += " (no random tie: a rule)"
			} else {
				tied++
				verdict += " (the emulation met ties Karpenter breaks at random)"
			}
			if os.Getenv("COMPARE_VERBOSE") != "" {
				r := first
				get := func(l []string) string {
					if r < len(l) {
						return l[r]
					}
					return "(no round)"
				}
				verdict += fmt.Sprintf("\n  emulation: %s\n  Karpenter: %s", get(ours.rounds), get(up.rounds))
			}
		}
		fmt.Printf("%-36s %d pods, %d nodes at start: emulation %d rounds USD %.4f/h, Karpenter %d rounds USD %.4f/h: %s\n",
			c.name, len(c.pods), len(c.nodes), len(ours.rounds), ours.cost, len(up.rounds), up.cost, verdict)
	}
	fmt.Printf("provisioned: %d of %d runs with the same nodes after the last round, max cost difference %.2f%%\n", same, runs, 100*maxDiff)
	fmt.Printf("rounds: %d of %d rounds identical; of the runs that differ, %d met ties Karpenter breaks at random, %d did not\n", sameRounds, rounds, tied, ruleDiffers)
	if ruleDiffers > 0 {
		t.Errorf("%d runs differ where the emulation met no random tie", ruleDiffers)
	}
	if runs == 0 {
		t.Error("no case: the corpus drew no scenario with pods pending after the first round")
	}
}

// emulatedRounds is the emulation's run of a case.
func emulatedRounds(c roundsCase) (roundsRun, error) {
	in := emulationInput(c.sc)
	in.ExistingNodes, in.Pods = c.nodes, c.pods
	p, err := simulation.Provision(in, simulation.MaxRounds)
	if err != nil {
		return roundsRun{}, err
	}
	var out roundsRun
	nodes := c.nodes
	for _, r := range p.Rounds {
		d := c.sc.decisionOf(r.Result)
		out.rounds = append(out.rounds, roundKey(d, nodes, r.Result.ExistingNodePods))
		out.cost += launchedCost(d)
		out.ties = out.ties || r.Result.Ties > 0
		nodes = append(nodes, r.Launched...)
	}
	return out, nil
}

// upstreamRounds is Karpenter's run of a case, each round on the nodes its own rounds launched.
func upstreamRounds(c roundsCase) (roundsRun, error) {
	var out roundsRun
	pools := poolsByName(c.sc.pools)
	nodes, pending := c.nodes, c.pods
	for r := 1; r <= simulation.MaxRounds && len(pending) > 0; r++ {
		run, err := upstreamRound(c.sc, nodes, pending)
		if err != nil {
			return roundsRun{}, fmt.Errorf("round %d: %w", r, err)
		}
		res := &karpenter.Result{NodeClaims: run.launched, ExistingNodePods: run.existing}
		round, after, left := simulation.AfterRound(r, nodes, pending, pools, res)
		if round.Placed == 0 {
			break
		}
		out.rounds = append(out.rounds, roundKey(run.decision, nodes, res.ExistingNodePods))
		out.cost += launchedCost(run.decision)
		nodes, pending = after, left
	}
	return out, nil
}

// roundKey is a round's outcome: its decision's signature, then per existing node (by name)
// the pods bound to it per workload.
func roundKey(d decision, nodes []karpenter.ExistingNode, existing map[string][]*corev1.Pod) string {
	var sb strings.Builder
	sb.WriteString(d.signature())
	for _, n := range nodes {
		if pods := existing[n.Name]; len(pods) > 0 {
			fmt.Fprintf(&sb, "\non %s: %s", n.Name, newLaunched("", "", "", 0, pods).key())
		}
	}
	return sb.String()
}

// launchedCost is the hourly cost of what a round launched (a NodeClaim nothing launched for
// costs nothing).
func launchedCost(d decision) float64 {
	cost := 0.0
	for _, c := range d.claims {
		if !math.IsNaN(c.price) {
			cost += c.price
		}
	}
	return cost
}

func poolsByName(pools []*karpv1.NodePool) map[string]*karpv1.NodePool {
	out := make(map[string]*karpv1.NodePool, len(pools))
	for _, np := range pools {
		out[np.Name] = np
	}
	return out
}

// secondBatch is another replica set of the same pods (names and UIDs of their own), pending
// beside the first batch that is already bound.
func secondBatch(pods []*corev1.Pod) []*corev1.Pod {
	out := make([]*corev1.Pod, len(pods))
	for i, p := range pods {
		q := p.DeepCopy()
		q.Name += "-b"
		q.UID = types.UID(string(p.UID) + "-b")
		out[i] = q
	}
	return out
}
