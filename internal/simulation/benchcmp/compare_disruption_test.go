package benchcmp

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// TestCompareUpstreamDisruption is the comparator of disruption. Each case of the seeded
// disruption corpus runs on both sides: the emulation (package disruption's Run with the
// provisioning emulation, as simulation.Settle runs it) and Karpenter's own controllers on the
// project's kube-apiserver (upstream_disruption_test.go), each from an empty cluster to the
// horizon, then with the case's change to the horizon again. A case is identical when both
// sides end with the same nodes (pool, instance type, capacity type, zone) before and after
// the change, and removed the same number of nodes per reason. Where Karpenter breaks ties at
// random, the case is identical when Karpenter's run is one of the emulation's outcomes with
// other tie-breaks (compareDisruption), as compare-upstream judges a round; how often the
// shown (default) outcome is Karpenter's run is counted apart. It prints one line per case
// and
//
//	disruption: N of M scenarios identical, max steady-state cost difference X% (...); the shown outcome equals Karpenter's run in K of M, ...
//
// DISRUPTION_KARPENTER_RUNS (default 1) runs Karpenter's side that many times per case.
// DISRUPTION_CORPUS cases (default 3, in the suite) of at most DISRUPTION_MAX_PODS pods
// (default 30) are drawn with CORPUS_SEED; make compare-upstream-disruption runs 160 of up to
// 300; DISRUPTION_ONLY=3,19 runs only those of them (by index); SCENARIOS=DIR runs the case
// directories under DIR instead (loadDisruptionDirs). It fails, in the suite too, when a case
// is proven out of reach (Karpenter's run is none of the emulation's outcomes, and the
// emulation met no tie or its guided search ran every combination: a rule differs). With
// DISRUPTION_GATE=1 (the make target) it also fails on a case not reached in TIE_RUNS runs;
// the suite reports those. The suite has no floor of identical cases: Karpenter's run is a
// random draw and the search is bounded, so whether a case is reached varies from run to run.
func TestCompareUpstreamDisruption(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Karpenter's controllers on an API server")
	}
	if _, err := sharedDisruptionEnvironment(); err != nil {
		if errors.Is(err, errNoAPIServer) {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	seed := uint64(envInt("CORPUS_SEED", 1))
	maxPods := envInt("DISRUPTION_MAX_PODS", 30)
	var cases []disruptionCase
	only, err := disruptionOnly(os.Getenv("DISRUPTION_ONLY"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range envInt("DISRUPTION_CORPUS", 3) {
		if only == nil || only[i] {
			cases = append(cases, disruptionCorpusCase(seed, i, maxPods))
		}
	}
	if dir := os.Getenv("SCENARIOS"); dir != "" {
		if cases, err = loadDisruptionDirs(dir); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Printf("disruption: launch choice: %s (AKS); %s (EKS); NodeClaims initialize at once on both sides\n", launchChoice(false), launchChoice(true))
	tl := compareDisruption(t, cases, os.Getenv("COMPARE_VERBOSE") != "")
	tl.print()
	if tl.proven > 0 {
		t.Errorf("%d scenarios differ where no tie-break of the emulation's gives Karpenter's run, every one tried: a rule differs", tl.proven)
	}
	if unreached := tl.ruleDiffers - tl.proven; unreached > 0 {
		msg := fmt.Sprintf("%d scenarios differ where no tie-break of the emulation's tried gives Karpenter's run (not every combination run)", unreached)
		if os.Getenv("DISRUPTION_GATE") == "" {
			// A search cut short proves no rule wrong: the suite reports it, the make
			// target (DISRUPTION_GATE=1) fails on it.
			t.Log(msg + " (reported; make compare-upstream-disruption fails on it)")
			return
		}
		t.Error(msg)
	}
}

// disruptionOnly parses DISRUPTION_ONLY, a comma-separated list of case indices (nil: every
// case).
func disruptionOnly(v string) (map[int]bool, error) {
	if v == "" {
		return nil, nil
	}
	only := map[int]bool{}
	for _, f := range strings.Split(v, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || i < 0 {
			return nil, fmt.Errorf("DISRUPTION_ONLY=%q: want case indices separated by commas, such as 3,19", v)
		}
		only[i] = true
	}
	return only, nil
}

// disruptionTally sums the comparator's verdicts and times.
type disruptionTally struct {
	// same counts the cases each of whose Karpenter runs is one of the emulation's outcomes
	// (the rules' figure); shown those whose first run is the emulation's shown outcome.
	cases, same, shown int
	// tied counts the cases where the emulation met ties Karpenter breaks at random;
	// byTies those identical only with other tie-breaks than the shown ones.
	tied, byTies int
	// ruleDiffers counts the cases with a Karpenter run no tie-break reached (the gate);
	// proven those of them where the emulation met no tie or the guided search exhausted
	// the tie tree.
	ruleDiffers, proven int
	// zonesOnly counts the cases whose shown outcome differs only in its nodes' zones.
	zonesOnly int
	// maxCostDiff is from the nearest of the emulation's outcomes, maxShownDiff from the
	// shown one.
	maxCostDiff, maxShownDiff float64
	ours, upstream            time.Duration
	// tieRuns and tieTime are the emulation's runs with other tie-breaks.
	tieRuns int
	tieTime time.Duration
	// karpenterRuns is how many times Karpenter ran each case; karpenterVaries counts the
	// cases where its runs differ.
	karpenterRuns, karpenterVaries int
}

func (tl disruptionTally) print() {
	fmt.Printf("disruption: %d of %d scenarios identical, max steady-state cost difference %.2f%% (Karpenter's run among the emulation's outcomes, cost from the nearest); the shown outcome equals Karpenter's run in %d of %d, max cost difference %.2f%%\n",
		tl.same, tl.cases, 100*tl.maxCostDiff, tl.shown, tl.cases, 100*tl.maxShownDiff)
	ratio := 0.0
	if tl.ours > 0 {
		ratio = float64(tl.upstream) / float64(tl.ours)
	}
	fmt.Printf("disruption: %d of the %d whose shown outcome differs differ only in zones (same pools, instance types, capacity types and disruptions per reason)\n", tl.zonesOnly, tl.cases-tl.shown)
	fmt.Printf("disruption: %d met ties Karpenter breaks at random; %d identical only with other tie-breaks (%d emulation runs, %s); %d differ (the gate): %d proven (no tie, or no tie-break follows Karpenter's run: the tie tree exhausted), %d not reached in the bounded runs\n",
		tl.tied, tl.byTies, tl.tieRuns, tl.tieTime.Round(time.Millisecond), tl.ruleDiffers, tl.proven, tl.ruleDiffers-tl.proven)
	fmt.Printf("disruption: Karpenter ran each case %d times; its runs differ among themselves in %d of %d\n", tl.karpenterRuns, tl.karpenterVaries, tl.cases)
	fmt.Printf("disruption: wall time emulation %s (shown outcome), Karpenter's controllers %s (%.0fx)\n",
		tl.ours.Round(time.Millisecond), tl.upstream.Round(time.Millisecond), ratio)
}

// disruptionTieLimit is the default bound on the emulation's runs per case (TIE_RUNS), the
// shown one included: 256 up to 62 pods, down to 32 from 500. Most runs of the guided search
// stop early, where they leave Karpenter's run.
func disruptionTieLimit(pods int) int { return max(32, min(256, 16000/max(pods, 1))) }

// compareDisruption runs every case on both sides, printing a line each. Karpenter runs
// DISRUPTION_KARPENTER_RUNS times (default 1): each run is one draw of its random choices, and
// the case is identical when every run is one of the emulation's outcomes (judgeDisruption).
// The line shows the first run.
func compareDisruption(t *testing.T, cases []disruptionCase, verbose bool) disruptionTally {
	var tl disruptionTally
	karpenterRuns := max(1, envInt("DISRUPTION_KARPENTER_RUNS", 1))
	for _, c := range cases {
		tl.cases++
		var first disruptionJudgement
		var outcomes []string
		same, reached, proven := true, 0, false
		for k := range karpenterRuns {
			// Karpenter's side runs first: the emulation takes its pods' UIDs and creation
			// times, in the shown run and in every run with other tie-breaks.
			up, err := upstreamDisruption(c)
			if err != nil {
				t.Fatalf("%s: Karpenter: %v", c.name, err)
			}
			if !slices.Contains(outcomes, disruptionSignature(up)) {
				outcomes = append(outcomes, disruptionSignature(up))
			}
			j, err := judgeDisruption(c.withServerIdentities(up), up)
			if err != nil {
				t.Fatalf("%s: emulation: %v", c.name, err)
			}
			tl.upstream += up.elapsed
			tl.tieRuns += j.tieRuns
			tl.tieTime += j.tieTime
			if j.same {
				reached++
			}
			same = same && j.same
			proven = proven || j.proven
			if k == 0 {
				first = j
			}
		}
		ours, up := first.ours, first.up
		tl.ours += ours.elapsed
		tl.maxShownDiff = max(tl.maxShownDiff, first.shownDiff)
		tl.maxCostDiff = max(tl.maxCostDiff, first.nearest)
		if ours.ties > 0 {
			tl.tied++
		}
		if len(outcomes) > 1 {
			tl.karpenterVaries++
		}
		if sameOutcome(ours, up) {
			tl.shown++
		}
		switch {
		case same:
			tl.same++
			if !sameOutcome(ours, up) {
				tl.byTies++
			}
		case proven:
			tl.ruleDiffers++
			tl.proven++
		default:
			tl.ruleDiffers++
		}
		verdict := first.verdict
		if karpenterRuns > 1 {
			verdict = fmt.Sprintf("%d of %d Karpenter runs reached (%d distinct); first run %s", reached, karpenterRuns, len(outcomes), verdict)
		}
		if !sameOutcome(ours, up) && sameUpToZones(ours, up) {
			tl.zonesOnly++
			verdict += "; shown outcome differs in zones only"
		}
		if !sameOutcome(ours, up) && verbose {
			verdict += fmt.Sprintf("\n  emulation: before %s\n             after %s\n             %s\n  Karpenter: before %s\n             after %s\n             %s",
				nodeKeysString(ours.before), nodeKeysString(ours.after), ours.timeline(),
				nodeKeysString(up.before), nodeKeysString(up.after), up.timeline())
		}
		fmt.Printf("%-44s %3d pods %-26s emulation (shown) %2d→%2d nodes USD %.4f/h [%s], Karpenter (steady state) %2d→%2d nodes USD %.4f/h [%s]: %s\n",
			c.name, len(c.sc.pods), tagsOf(c), len(ours.before), len(ours.after), ours.cost(), ours.reasons(),
			len(up.before), len(up.after), up.cost(), up.reasons(), verdict)
	}
	tl.karpenterRuns = karpenterRuns
	return tl
}

// disruptionJudgement is the verdict on one Karpenter run of a case.
type disruptionJudgement struct {
	ours, up disruptionOutcome
	// same says up is one of the emulation's outcomes; proven, when not, that no tie-break
	// follows it (none met, or the tie tree exhausted).
	same, proven bool
	verdict      string
	// shownDiff and nearest are the steady-state cost differences from up of the shown
	// outcome and of the nearest outcome found.
	shownDiff, nearest float64
	tieRuns            int
	tieTime            time.Duration
}

// judgeDisruption runs the emulation on c (which carries up's pod identities) and, where its
// shown outcome is not up and it met ties Karpenter breaks at random, searches its other
// tie-breaks for up (reachDisruption: at most TIE_RUNS runs, default disruptionTieLimit, and
// TIE_SECONDS of wall time, default 30).
func judgeDisruption(c disruptionCase, up disruptionOutcome) (disruptionJudgement, error) {
	tb := &disruptionTies{}
	ours, err := emulatedDisruptionWith(c, tb)
	if err != nil {
		return disruptionJudgement{}, err
	}
	costDiff := func(o disruptionOutcome) float64 {
		if uc := up.cost(); uc > 0 {
			return math.Abs(o.cost()-uc) / uc
		}
		return 0
	}
	j := disruptionJudgement{ours: ours, up: up, verdict: "identical", shownDiff: costDiff(ours)}
	j.nearest = j.shownDiff
	switch {
	case sameOutcome(ours, up):
		j.same = true
	case ours.ties == 0:
		j.proven = true
		j.verdict = "differs (no random tie: a rule)"
	default:
		start := time.Now()
		r, err := reachDisruption(c, ours, tb, up, envInt("TIE_RUNS", disruptionTieLimit(len(c.sc.pods))), time.Duration(envInt("TIE_SECONDS", 30))*time.Second)
		if err != nil {
			return j, err
		}
		j.tieRuns, j.tieTime = r.runs-1, time.Since(start)
		for _, o := range r.outcomes {
			j.nearest = min(j.nearest, costDiff(o))
		}
		walk := fmt.Sprintf("%d outcomes in %d runs, %d cut where they left Karpenter's run", len(r.outcomes), r.runs, r.cut)
		switch {
		case r.found != nil:
			j.same, j.nearest = true, 0
			j.verdict = fmt.Sprintf("identical with other tie-breaks (run %d; %d random ties met)", r.runs, ours.ties)
		case r.exhaustive:
			j.proven = true
			j.verdict = fmt.Sprintf("differs (%d random ties met, %s, the tie tree exhausted: a rule)", ours.ties, walk)
		default:
			j.verdict = fmt.Sprintf("differs (%d random ties met, not reached: %s)", ours.ties, walk)
		}
	}
	return j, nil
}

func tagsOf(c disruptionCase) string {
	s := ""
	seen := map[string]bool{}
	for _, t := range c.tags {
		if !seen[t] {
			seen[t] = true
			if s != "" {
				s += ","
			}
			s += t
		}
	}
	if s == "" {
		return "-"
	}
	return s
}

// emulatedDisruption is the emulation's run of a case: package disruption's Run on the
// provisioning emulation (simulation.Provision), as simulation.Settle runs it, from an empty
// cluster to the horizon; then the change as Settle applies an After input (pools replaced,
// pods gone leave their nodes, the node class's hash changed) and Run to the horizon again.
// The clock starts where the Karpenter side's does, and the second run where its second phase
// does (the first's horizon).
func emulatedDisruption(c disruptionCase) (disruptionOutcome, error) {
	return emulatedDisruptionWith(c, nil)
}

// emulatedDisruptionWith is emulatedDisruption with every tie the emulation meets
// (provisioning's, the disruption controller's and its simulations') resolved by tb; nil
// takes the emulation's own choices. With tb.guide set the run stops, with a partial outcome,
// at the first node launched, disruption or nodes before the change that the guide's run
// cannot have (disruptionGuide).
func emulatedDisruptionWith(c disruptionCase, tb *disruptionTies) (disruptionOutcome, error) {
	start := time.Now()
	var out disruptionOutcome
	in := emulationInput(c.sc)
	in.Pods, in.ExistingNodes = nil, nil
	var g *disruptionGuide
	if tb != nil {
		in.TieBreaks, g = tb, tb.guide
	}
	if c.wrongRule != nil {
		in.NodePools = brokenPools(in.NodePools, c.wrongRule)
	}
	cl := &disruption.Cluster{Input: in, Pending: c.sc.pods, PDBs: c.pdbs, ReplacementUID: c.replacementUID()}
	hash := 0
	cl.CloudDrift = func(_ *karpv1.NodePool, nc *karpv1.NodeClaim) cloudprovider.DriftReason {
		if nc.Annotations == nil {
			nc.Annotations = map[string]string{}
		}
		had, ok := nc.Annotations[nodeClassHashAnnotation]
		if !ok {
			nc.Annotations[nodeClassHashAnnotation] = strconv.Itoa(hash)
			return ""
		}
		if had != strconv.Itoa(hash) {
			return "NodeClassDrift"
		}
		return ""
	}
	ctrl := disruption.NewController(disruption.Options{LaunchToInitialized: time.Nanosecond})
	// launched counts the nodes launched by key, for the guide.
	launched, beforeChange := map[string]int{}, true
	launch := func(labels map[string]string) bool {
		launched[nodeKeyOf(labels).String()]++
		return g.launches(launched, beforeChange)
	}
	provision := func(kin karpenter.Input) ([]karpenter.ExistingNode, []*corev1.Pod, error) {
		p, err := simulation.Provision(kin, simulation.MaxRounds)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range p.Rounds {
			out.ties += r.Result.Ties
		}
		if g != nil {
			had := map[string]bool{}
			for _, ex := range kin.ExistingNodes {
				had[ex.Name] = true
			}
			for _, ex := range p.Nodes {
				if !had[ex.Name] && !launch(ex.Labels) {
					tb.astray()
					return nil, nil, errAstray
				}
			}
		}
		return p.Nodes, p.Pending, nil
	}
	observe := func(ev *disruption.Event) bool {
		for _, n := range ev.Removed {
			out.disruptions = append(out.disruptions, disruptionEvent{at: ev.At.Sub(disruptionStart), reason: string(ev.Reason), node: emulatedKey(c.sc, n)})
		}
		if g == nil {
			return true
		}
		ok := g.follows(out.disruptions)
		for _, n := range ev.Replacements {
			ok = launch(n.Labels) && ok
		}
		if !ok {
			tb.astray()
		}
		return ok
	}
	// runAt runs a phase; false says the guide stopped it.
	runAt := func(at time.Time) (bool, error) {
		res, err := disruption.Run(cl, ctrl, disruption.RunOptions{Start: at, Horizon: c.horizon, Provision: provision, Observe: observe})
		if errors.Is(err, errAstray) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		out.ties += res.Ties
		return !res.Stopped, nil
	}
	if ok, err := runAt(disruptionStart); err != nil || !ok {
		return out, wrapPhase("before", err)
	}
	out.before = emulatedNodes(c.sc, cl)
	out.beforeTies = out.ties
	if g != nil && nodeKeysString(out.before) != g.before {
		tb.astray()
		return out, nil
	}
	beforeChange = false
	if c.changed() {
		if c.afterPools != nil {
			cl.Input.NodePools = replacedPools(cl.Input.NodePools, c.afterPools)
			if c.wrongRule != nil {
				cl.Input.NodePools = brokenPools(cl.Input.NodePools, c.wrongRule)
			}
		}
		if c.classChanged {
			hash++
		}
		if c.afterPods != nil {
			// The scale-down as Settle's After makes it, at the second phase's start.
			// Replicas the ReplicaSet controller cannot tell apart are a tie too; the
			// tie-breaker does not see it, so no search of this case is exhaustive.
			if _, tied := simulation.KeepReplicas(cl, c.afterPods, workloadOf, disruptionStart.Add(c.horizon)); tied {
				out.ties++
				out.unwalkedTies = true
			}
		}
		if ok, err := runAt(disruptionStart.Add(c.horizon)); err != nil || !ok {
			return out, wrapPhase("after", err)
		}
	}
	out.after = emulatedNodes(c.sc, cl)
	out.pending = len(cl.Pending)
	out.elapsed = time.Since(start)
	return out, nil
}

// errAstray stops a guided run from the provisioner.
var errAstray = errors.New("the run went astray of its guide")

// wrapPhase names the phase of an error (nil stays nil).
func wrapPhase(phase string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", phase, err)
}

// brokenPools are copies of the pools with a rule broken on purpose (the gate's test).
func brokenPools(pools []*karpv1.NodePool, wrong func(*karpv1.NodePool)) []*karpv1.NodePool {
	out := make([]*karpv1.NodePool, len(pools))
	for i, np := range pools {
		out[i] = np.DeepCopy()
		wrong(out[i])
	}
	return out
}

// replacedPools are the pools with those of the same name in after put in their place.
func replacedPools(pools, after []*karpv1.NodePool) []*karpv1.NodePool {
	by := map[string]*karpv1.NodePool{}
	for _, np := range after {
		by[np.Name] = np
	}
	out := make([]*karpv1.NodePool, len(pools))
	for i, np := range pools {
		out[i] = np
		if a := by[np.Name]; a != nil {
			out[i] = a
		}
	}
	return out
}

func emulatedNodes(sc scenario, cl *disruption.Cluster) []nodeKey {
	var out []nodeKey
	for _, n := range cl.Nodes {
		if n.NodeClaim != nil && !n.MarkedForDeletion {
			out = append(out, emulatedKey(sc, n))
		}
	}
	sortNodeKeys(out)
	return out
}

func emulatedKey(sc scenario, n *disruption.Node) nodeKey {
	k := nodeKeyOf(n.Labels)
	for _, it := range sc.its[k.pool] {
		if it.Name == k.instanceType {
			if o := offeringOf(it, k.capacityType, k.zone); o != nil {
				k.price = o.Price
			}
		}
	}
	return k
}
