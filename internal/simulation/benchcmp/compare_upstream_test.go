package benchcmp

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	kscheduling "sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"

	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// envInt reads an integer setting of the comparator from the environment.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// TestCompareUpstream is the fidelity comparator: every scenario goes through Karpenter's own
// scheduler (with the provisioner's truncation and the Azure provider's launch choice) and
// through the emulation, and the two launches are compared NodeClaim by NodeClaim (pool,
// size, capacity type, pods per workload; zones are not compared: Karpenter picks among equal
// zones at random). Where Karpenter breaks ties at random (Go map order), the emulation
// records each tie it meets and re-runs the round with other tie-breaks
// (provisioner.Outcomes, at most TIE_RUNS runs, default tieLimit): its outcomes are a
// set, and Karpenter runs UPSTREAM_RUNS times (default 4). A Karpenter run the sample missed is
// looked for with karpenter.Reach (a depth-first search of the emulation's tie-breaks guided by
// that run's bindings and pruned at the first binding it does not have, at most REACH_RUNS
// rounds, default 2000, and REACH_SECONDS, default 60, per Karpenter run): found, it is one of
// the emulation's outcomes; proven out (the walk ended without it, or the emulation met no tie),
// a rule differs; neither, the scenario is undecided. A scenario is identical (the rules'
// figure) when every Karpenter run is among the emulation's outcomes; the cost difference from
// the nearest emulated outcome is the rules' too. Next to them, the user's figures
// (figures_test.go): per Karpenter run, whether the shown prediction (the first outcome) is
// that run, the gap of the shown and of the expected cost, and whether the run lies in the shown
// hourly_cost_range, all as simulate and the data source compute them (simulation.TieFigures).
// The sample is drawn only where some Karpenter run is not the emulation's first outcome (it
// cannot change the verdict or the counts elsewhere); TIE_SAMPLE=always draws it wherever the
// emulation met ties, as make compare-upstream does, for the outcome counts on each line.
// With SCENARIOS=DIR it reads
// the scenario directories under DIR; without, it runs the seeded corpus (CORPUS scenarios,
// default 200, seed CORPUS_SEED, at most CORPUS_MAX_PODS pods each: 150 in the suite, 2,000 in
// make compare-upstream; CORPUS_ONLY=45,61 keeps those indices only). COMPARE_VERBOSE=1
// prints both sides' outcomes of every scenario that differs. COMPARE_WORKERS scenarios
// (default GOMAXPROCS) run at once, their lines printed in scenario order; COMPARE_TIMING=FILE
// runs them one at a time and appends each one's CPU time per phase to FILE. It ends with
//
//	prediction: N of M scenarios identical (rules); the shown prediction equals Karpenter's run in K of R runs; shown cost within X % of Karpenter's runs at p95 (max Y %); every run inside the shown range in Z of M scenarios
//
// (and the same for EKS), and fails where the gate does (scenarioFigures.gateFailure and
// userTally.searchFailure): a Karpenter run proven out of the emulation's reach, ties or not;
// on the seeded corpus, a run outside a shown range that is exhaustive, or runs outside the
// ranges that are not in more than 1 in 100 scenarios.
func TestCompareUpstream(t *testing.T) {
	setup := startPhaseClock()
	var scenarios []scenario
	if dir := os.Getenv("SCENARIOS"); dir != "" {
		var err error
		if scenarios, err = loadScenarios(dir); err != nil {
			t.Fatal(err)
		}
	} else {
		seed := uint64(envInt("CORPUS_SEED", 1))
		// In the suite the corpus keeps to 150 pods a scenario (Karpenter's scheduler takes
		// seconds beyond); make compare-upstream runs it up to 2,000.
		maxPods := envInt("CORPUS_MAX_PODS", 150)
		only := indices(os.Getenv("CORPUS_ONLY"))
		for i := range envInt("CORPUS", 200) {
			if len(only) > 0 && !only[i] {
				continue
			}
			sc := corpusScenario(seed, i, maxPods, cachedRegionTypes)
			sc.seeded = true
			scenarios = append(scenarios, sc)
		}
		// The EKS corpus: in the suite a subset (EKS_CORPUS, default 24, up to
		// EKS_CORPUS_MAX_PODS pods, default 60: Karpenter's scheduler over 1,363 EC2 types
		// costs more per pod than over Azure's); make compare-upstream runs 120 up to 2,000.
		eksOnly := indices(os.Getenv("EKS_CORPUS_ONLY"))
		eksMax := envInt("EKS_CORPUS_MAX_PODS", 60)
		for i := range envInt("EKS_CORPUS", 24) {
			if len(eksOnly) > 0 && !eksOnly[i] {
				continue
			}
			sc := eksCorpusScenario(seed, i, eksMax, eksRegionTypes)
			sc.seeded = true
			scenarios = append(scenarios, sc)
		}
	}
	if len(scenarios) == 0 {
		t.Fatal("no scenarios")
	}
	setup.lap("setup") // drawing the scenarios, deriving the regions' instance types
	setup.write(scenario{name: "(setup)"})
	runComparison(t, scenarios, os.Stdout)
}

// runComparison compares the scenarios, prints their lines and the closing lines to w (the AKS
// tally's, then the EKS one's when there are EKS scenarios) and fails t where the gate fails.
func runComparison(t *testing.T, scenarios []scenario, w io.Writer) {
	// The scenarios are independent: COMPARE_WORKERS of them (default GOMAXPROCS) run at once,
	// each printing into a buffer of its own, and their lines and counts are taken in scenario
	// order, so the output is what one at a time prints. (Karpenter's scheduler spreads only a
	// part of a Solve over the cores; on 2 cores two scenarios at once keep both busy.)
	// COMPARE_TIMING measures the process's CPU time per phase, so it takes one at a time.
	workers := max(1, envInt("COMPARE_WORKERS", runtime.GOMAXPROCS(0)))
	if os.Getenv("COMPARE_TIMING") != "" {
		workers = 1
	}
	type report struct {
		out  bytes.Buffer
		tl   tally
		done chan struct{}
	}
	reports := make([]*report, len(scenarios))
	for i := range reports {
		reports[i] = &report{done: make(chan struct{})}
	}
	go func() {
		slots := make(chan struct{}, workers)
		for i, sc := range scenarios {
			slots <- struct{}{}
			go func() {
				defer func() { <-slots; close(reports[i].done) }()
				compareScenario(t, sc, &reports[i].tl, &reports[i].out)
			}()
		}
	}()
	var aksTally, eksTally tally
	for i, sc := range scenarios {
		<-reports[i].done
		w.Write(reports[i].out.Bytes())
		if sc.eks {
			eksTally.add(reports[i].tl)
		} else {
			aksTally.add(reports[i].tl)
		}
	}
	// The AKS line is the one the issue names; the EKS one follows when there are EKS
	// scenarios (always in the corpus run; in a SCENARIOS run when a scenario.yaml names an
	// EKS region).
	if aksTally.user.scenarios > 0 || eksTally.user.scenarios == 0 {
		aksTally.print(w, "", "")
	}
	if eksTally.user.scenarios > 0 {
		eksTally.print(w, " (eks)", eksLaunchNote)
	}
	failures := append(aksTally.user.failures, eksTally.user.failures...)
	for _, tl := range []*tally{&aksTally, &eksTally} {
		if f := tl.user.searchFailure(); f != "" {
			failures = append(failures, f)
		}
	}
	for _, f := range failures {
		t.Errorf("fidelity gate: %s", f)
	}
}

// eksLaunchNote closes the EKS summary: the launch choice there is AWS's (EC2 CreateFleet),
// which cannot run offline, so both sides use the emulated one (upstream_eks_test.go).
const eksLaunchNote = " (launch choice: EC2 Fleet is emulated on both sides)"

// indices reads a comma-separated list of scenario indices (CORPUS_ONLY=45,61).
func indices(list string) map[int]bool {
	only := map[int]bool{}
	for _, f := range strings.Split(list, ",") {
		if i, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			only[i] = true
		}
	}
	return only
}

// tally is the comparator's count over one cloud's scenarios.
type tally struct {
	// user holds the user's and the rules' figures and the gate's failures.
	user                 userTally
	random, reachedScens int
	// maxDiff is the largest difference of a Karpenter outcome's cost from the nearest of the
	// emulation's outcomes (the rules' figure); maxSpread the largest spread of Karpenter's own runs.
	maxDiff, maxSpread          float64
	oursTime, upTime, reachTime time.Duration
	// inSample counts the scenarios where every Karpenter run was in the emulation's sampled
	// outcomes already; reachRuns the guided search's rounds.
	inSample, reachRuns int
	pods                int
}

// add counts another tally's scenarios in tl.
func (tl *tally) add(o tally) {
	tl.user.add(o.user)
	tl.random += o.random
	tl.reachedScens += o.reachedScens
	tl.maxDiff = math.Max(tl.maxDiff, o.maxDiff)
	tl.maxSpread = math.Max(tl.maxSpread, o.maxSpread)
	tl.oursTime += o.oursTime
	tl.upTime += o.upTime
	tl.reachTime += o.reachTime
	tl.inSample += o.inSample
	tl.reachRuns += o.reachRuns
	tl.pods += o.pods
}

// print writes the tally's closing lines, the last the summary (userTally.summary).
func (tl *tally) print(w io.Writer, label, note string) {
	fmt.Fprintf(w, "(%d pods in all; emulation %s with its tie-break re-runs and the shown figures, Karpenter's scheduler %s for the first runs; %d scenarios with random ties or a random shape; Karpenter's own runs spread up to %.2f%% in cost)\n",
		tl.pods, tl.oursTime.Round(time.Millisecond), tl.upTime.Round(time.Millisecond), tl.random, tl.maxSpread)
	fmt.Fprintf(w, "(rules: every Karpenter run among the emulation's sampled outcomes in %d scenarios; the guided search found the others' in %d, in %d rounds, %s; cost from the nearest emulated outcome max %.2f%%)\n",
		tl.inSample, tl.reachedScens, tl.reachRuns, tl.reachTime.Round(time.Millisecond), tl.maxDiff)
	fmt.Fprintln(w, tl.user.distances())
	fmt.Fprintln(w, tl.user.summary(label, note))
}

// compareScenario runs one scenario through both sides, prints its line to w and adds it to
// tl. It may run on a goroutine of its own, so it reports errors without stopping the test.
func compareScenario(t *testing.T, sc scenario, tl *tally, w io.Writer) {
	t.Helper()
	sf, ok := measureScenario(t, sc, tl, w)
	if ok {
		tl.user.addScenario(sf)
	}
}

// measureScenario runs one scenario through both sides, prints its line to w, counts its
// rules' figures and timings in tl and returns its figures (false after an error, reported).
func measureScenario(t *testing.T, sc scenario, tl *tally, w io.Writer) (scenarioFigures, bool) {
	t.Helper()
	sf := scenarioFigures{name: sc.name, seeded: sc.seeded}
	runs := envInt("UPSTREAM_RUNS", 4)
	cpu := startPhaseClock()
	defer cpu.write(sc)
	start := time.Now()
	em, err := emulate(sc)
	tl.oursTime += time.Since(start)
	cpu.lap("emulation")
	if err != nil {
		t.Errorf("%s: emulation: %v", sc.name, err)
		return sf, false
	}
	ties := em.first.Ties
	start = time.Now()
	up, err := upstreamDecision(sc)
	tl.upTime += time.Since(start)
	cpu.lap("karpenter")
	if err != nil {
		t.Errorf("%s: Karpenter: %v", sc.name, err)
		return sf, false
	}
	tl.pods += len(sc.pods)
	// Where the emulation met ties Karpenter breaks at random, or the scenario has a shape
	// known to make Karpenter's choice random (randomChoice: a cross-check that the emulation
	// records every such tie), Karpenter runs several times: each of its outcomes must be
	// among the emulation's.
	ups := []decision{up}
	reason := randomChoice(sc)
	if ties > 0 || reason != "" {
		tl.random++
		for r := 1; r < runs; r++ {
			again, err := upstreamDecision(sc)
			if err != nil {
				t.Errorf("%s: Karpenter: %v", sc.name, err)
				return sf, false
			}
			ups = append(ups, again)
		}
		cpu.lap("karpenter-reruns")
	}
	// The user's figures: what simulate and the data source show (the first outcome, its
	// range and expected cost), computed as they compute them. Where every Karpenter run is the
	// first outcome, the range cannot miss one, and the suite does not walk it (TIE_SAMPLE=always
	// does, as for the rules' sample below).
	start = time.Now()
	shown, err := userFigures(em.in, em.first, em.decision, os.Getenv("TIE_SAMPLE") == "always" || !allFirst(em.decision, ups))
	tl.oursTime += time.Since(start)
	cpu.lap("shown")
	if err != nil {
		t.Errorf("%s: emulation: %v", sc.name, err)
		return sf, false
	}
	sf.exhaustive = shown.exhaustive
	for _, u := range ups {
		sf.runs = append(sf.runs, shown.measure(u))
	}
	// The rules' figures: the emulation's other outcomes (Outcomes: at most TIE_RUNS runs with
	// other tie-breaks). Where every Karpenter run is the emulation's first outcome (same
	// signature and cost) they cannot change the verdict or the cost difference (0), so the
	// suite does not draw them; TIE_SAMPLE=always draws them for every scenario, for the
	// number of outcomes on each line (make compare-upstream).
	ours, exhaustive, sampleDrawn := []decision{em.decision}, false, false
	if os.Getenv("TIE_SAMPLE") == "always" || !allFirst(em.decision, ups) {
		start = time.Now()
		ours, exhaustive, err = em.outcomes(envInt("TIE_RUNS", tieLimit(len(sc.pods))))
		tl.oursTime += time.Since(start)
		cpu.lap("sample")
		if err != nil {
			t.Errorf("%s: emulation: %v", sc.name, err)
			return sf, false
		}
		sampleDrawn = true
	}
	set := map[string]bool{}
	for _, o := range ours {
		set[o.signature()] = true
	}
	// A Karpenter outcome the sample missed is looked for with the guided search: the
	// emulation's tie-breaks that could give it, depth-first, pruned at the first binding
	// it does not have (karpenter.Reach). Found, it is one of the emulation's outcomes.
	// ruledOutRuns counts Karpenter runs the emulation cannot give pod for pod: the search
	// proved no tie-break binds the pods as that run did, or the emulation met no tie (its
	// one outcome is not the run): a rule differs, not chance.
	sampleHas, reachedHere, sampled, ruledOutRuns, undecidedRuns := true, 0, len(ours), 0, 0
	for i, u := range ups {
		if set[u.signature()] {
			sf.runs[i].reached = true
			continue
		}
		sampleHas = false
		if ties == 0 {
			sf.runs[i].ruledOut = true
			ruledOutRuns++
			continue
		}
		start := time.Now()
		found, n, exhaustive, err := reachDecision(sc, u, envInt("REACH_RUNS", 2000), time.Duration(envInt("REACH_SECONDS", 60))*time.Second)
		tl.reachTime += time.Since(start)
		cpu.lap("reach")
		tl.reachRuns += n
		if err != nil {
			t.Errorf("%s: emulation: %v", sc.name, err)
			return sf, false
		}
		switch {
		case found != nil:
			set[u.signature()] = true
			ours = append(ours, *found)
			sf.runs[i].reached = true
			reachedHere++
		case exhaustive:
			sf.runs[i].ruledOut = true
			ruledOutRuns++
		default:
			undecidedRuns++
		}
	}
	switch {
	case ruledOutRuns > 0:
		sf.verdict = ruledOut
	case undecidedRuns > 0:
		sf.verdict = undecided
	}
	if sampleHas {
		tl.inSample++
	}
	first, diff := "", 0.0
	upOutcomes := map[string]bool{}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, u := range ups {
		upOutcomes[u.signature()] = true
		lo, hi = math.Min(lo, u.cost), math.Max(hi, u.cost)
		nearest, best := math.Inf(1), ours[0]
		for _, o := range ours {
			if d := costDiff(o, u); d < nearest {
				nearest, best = d, o
			}
		}
		if !set[u.signature()] && first == "" {
			first = compareDecisions(best, u)
			if first == "" { // same claims, another pending count
				first = compareDecisions(ours[0], u)
			}
		}
		diff = math.Max(diff, nearest)
	}
	tl.maxDiff = math.Max(tl.maxDiff, diff)
	if len(ups) > 1 && lo > 0 {
		tl.maxSpread = math.Max(tl.maxSpread, (hi-lo)/lo*100)
	}
	if os.Getenv("COMPARE_VERBOSE") != "" && first != "" {
		for i, o := range ours {
			fmt.Fprintf(w, "--- %s emulation outcome %d of %d:\n%s\n", sc.name, i+1, len(ours), o.signature())
		}
		for i, u := range ups {
			fmt.Fprintf(w, "--- %s Karpenter run %d of %d:\n%s\n", sc.name, i+1, len(ups), u.signature())
		}
	}
	tieNote := ""
	if ties > 0 && !sampleDrawn {
		tieNote = fmt.Sprintf("; %d random ties, every Karpenter run the emulation's first outcome (no sample drawn); Karpenter %d outcomes in %d runs", ties, len(upOutcomes), len(ups))
	} else if ties > 0 {
		walk := "sampled"
		if exhaustive {
			walk = "all"
		}
		tieNote = fmt.Sprintf("; %d random ties, %d outcomes (%s); Karpenter %d outcomes in %d runs", ties, sampled, walk, len(upOutcomes), len(ups))
	} else if reason != "" {
		tieNote = fmt.Sprintf("; the emulation met no random tie, Karpenter (%s) %d outcomes in %d runs", reason, len(upOutcomes), len(ups))
	}
	if ruledOutRuns > 0 {
		tieNote += fmt.Sprintf("; %d of Karpenter's runs proven out of the emulation's reach", ruledOutRuns)
	}
	if undecidedRuns > 0 {
		tieNote += fmt.Sprintf("; %d of Karpenter's runs undecided (the guided search ran out of budget)", undecidedRuns)
	}
	if reachedHere > 0 && first == "" {
		tl.reachedScens++
		tieNote += fmt.Sprintf("; %d of Karpenter's outcomes found by the guided search, not in the sample", reachedHere)
	}
	tieNote += shown.note(sf)
	if first == "" {
		fmt.Fprintf(w, "%s (%d pods, %d NodeClaims): identical%s\n", sc.name, len(sc.pods), len(up.claims), tieNote)
		return sf, true
	}
	word := "differ"
	if sf.verdict == undecided {
		word = "undecided"
	}
	fmt.Fprintf(w, "%s (%d pods): %s: %s; cost %.2f%% from the nearest emulated outcome%s\n", sc.name, len(sc.pods), word, first, diff, tieNote)
	return sf, true
}

// allFirst reports whether every one of Karpenter's runs is the emulation's first outcome:
// the same signature and the same cost.
func allFirst(first decision, ups []decision) bool {
	for _, u := range ups {
		if u.signature() != first.signature() || u.cost != first.cost {
			return false
		}
	}
	return true
}

// tieLimit is the comparator's default bound on the emulation's runs per scenario: more than
// a prediction's (simulation.TieRuns) on small scenarios, where Karpenter's few outcomes are worth
// finding all of (64 runs up to 156 pods, down to simulation.TieRuns from 625 pods).
func tieLimit(pods int) int { return max(simulation.TieRuns, min(64, 10000/max(pods, 1))) }

// randomChoice says why Karpenter's outcome may depend on the order it iterates a Go map in
// (random by design): "zone ties" (see zoneRandom), or "daemon overhead order": a pool whose
// DaemonSets all select nodes by affinity may have instance types no DaemonSet runs on next to
// ones some do, and Karpenter adds a NodeClaim's smallest daemon overhead with a fold over
// those groups in map order that yields the overhead or nothing depending on which comes
// first. The emulation takes them in key order. "" when there is no such choice.
func randomChoice(sc scenario) string {
	if zoneRandom(sc) {
		return "zone ties"
	}
	for _, np := range sc.pools {
		var tolerating, selective int
		for _, d := range sc.daemons {
			if kscheduling.Taints(np.Spec.Template.Spec.Taints).ToleratesPod(d) != nil {
				continue
			}
			tolerating++
			if a := d.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
				selective++
			}
		}
		if tolerating > 0 && selective == tolerating {
			return "daemon overhead order"
		}
	}
	return ""
}

// zoneRandom reports whether Karpenter's outcome may depend on its random choice among equally
// counted zones: some pod has a topology spread or (anti-)affinity term on the zone key, and
// some pool's instance types are not offered in every zone alike (same capacity types, same
// prices). Where every zone is alike a random pick changes zone names only, which the
// comparison ignores.
func zoneRandom(sc scenario) bool {
	zonal := false
	for _, p := range sc.pods {
		for _, c := range p.Spec.TopologySpreadConstraints {
			zonal = zonal || c.TopologyKey == corev1.LabelTopologyZone
		}
		if a := p.Spec.Affinity; a != nil {
			var terms []corev1.PodAffinityTerm
			if a.PodAffinity != nil {
				terms = append(terms, a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution...)
				for _, w := range a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
					terms = append(terms, w.PodAffinityTerm)
				}
			}
			if a.PodAntiAffinity != nil {
				terms = append(terms, a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution...)
				for _, w := range a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
					terms = append(terms, w.PodAffinityTerm)
				}
			}
			for _, t := range terms {
				zonal = zonal || t.TopologyKey == corev1.LabelTopologyZone
			}
		}
	}
	if !zonal {
		return false
	}
	for _, its := range sc.its {
		if !zonesAlike(its) {
			return true
		}
	}
	return false
}

// zonesAlike reports whether every instance type is offered in the same zones with the same
// capacity types at the same price in each.
func zonesAlike(its []*cloudprovider.InstanceType) bool {
	zones := map[string]bool{}
	for _, it := range its {
		for _, o := range it.Offerings.Available() {
			zones[cloud.ZoneOf(o)] = true // "" for a regional offering without a zone (EKS)
		}
	}
	for _, it := range its {
		byCT := map[string]map[string]float64{}
		for _, o := range it.Offerings.Available() {
			if byCT[o.CapacityType()] == nil {
				byCT[o.CapacityType()] = map[string]float64{}
			}
			byCT[o.CapacityType()][cloud.ZoneOf(o)] = o.Price
		}
		for _, prices := range byCT {
			if len(prices) != len(zones) {
				return false
			}
			first := -1.0
			for _, p := range prices {
				if first >= 0 && p != first {
					return false
				}
				first = p
			}
		}
	}
	return true
}

// costDiff is the relative difference of the two hourly costs, in per cent.
func costDiff(ours, up decision) float64 {
	if up.cost == 0 && ours.cost == 0 {
		return 0
	}
	d := math.Abs(ours.cost-up.cost) / math.Max(up.cost, 1e-9) * 100
	if math.IsNaN(d) {
		return math.Inf(1)
	}
	return d
}

// cachedRegionTypes are the region's instance types for the default node class, derived once.
func cachedRegionTypes(region string) []*cloudprovider.InstanceType {
	return aksTypes(region, aks.NodeClass{})
}

// loadScenarios is filled in by scenario_dir_test.go.
var loadScenarios = func(dir string) ([]scenario, error) {
	return nil, fmt.Errorf("reading scenario directories is not implemented")
}

// phaseClock measures the process CPU time (user and system, GC included) each phase of one
// scenario's comparison takes, for COMPARE_TIMING=FILE: one line per scenario, "name pods
// phase=seconds ...", to find where the comparator's time goes (the scenarios run one after
// the other, so the process's CPU time between two laps is the phase's).
type phaseClock struct {
	on     bool
	last   time.Duration
	phases []string
	spent  map[string]time.Duration
}

func startPhaseClock() *phaseClock {
	if os.Getenv("COMPARE_TIMING") == "" {
		return &phaseClock{}
	}
	return &phaseClock{on: true, last: processCPU(), spent: map[string]time.Duration{}}
}

func (c *phaseClock) lap(phase string) {
	if !c.on {
		return
	}
	now := processCPU()
	if _, ok := c.spent[phase]; !ok {
		c.phases = append(c.phases, phase)
	}
	c.spent[phase] += now - c.last
	c.last = now
}

// write appends the scenario's line to the COMPARE_TIMING file.
func (c *phaseClock) write(sc scenario) {
	if !c.on {
		return
	}
	c.lap("rest")
	line := fmt.Sprintf("%s %d", sc.name, len(sc.pods))
	for _, p := range c.phases {
		line += fmt.Sprintf(" %s=%.3f", p, c.spent[p].Seconds())
	}
	f, err := os.OpenFile(os.Getenv("COMPARE_TIMING"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}
