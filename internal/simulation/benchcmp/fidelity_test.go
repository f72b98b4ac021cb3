package benchcmp

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling"
	kscheduling "sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// scenario is one provisioning round both sides decide.
type scenario struct {
	name       string
	pools      []*karpv1.NodePool
	its        map[string][]*cloudprovider.InstanceType
	pods       []*corev1.Pod
	daemons    []*corev1.Pod
	bestEffort bool
	// eks is true for an EKS scenario: its pools have EC2NodeClasses, instance types from
	// internal/cloud/eks and the AWS provider's launch (upstream_eks_test.go).
	eks bool
	// seeded is true for a scenario of a seeded corpus: there a Karpenter run outside the shown
	// cost range fails the gate (scenarioFigures.gateFailure).
	seeded bool
	// fixedTies is the emulation's karpenter.Input.FixedTies: a test breaks a tie rule with it.
	fixedTies func(index, n int) (int, bool)
}

// launched is one NodeClaim as launched: pool, size, capacity type and its pods per workload.
type launched struct {
	pool, sku, capacityType string
	price                   float64
	pods                    map[string]int
}

func (l launched) key() string {
	ws := make([]string, 0, len(l.pods))
	for w := range l.pods {
		ws = append(ws, w)
	}
	sort.Strings(ws)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s/%s/%s [", l.pool, l.sku, l.capacityType)
	for i, w := range ws {
		if i > 0 {
			sb.WriteString(" ")
		}
		fmt.Fprintf(&sb, "%s×%d", w, l.pods[w])
	}
	sb.WriteString("]")
	return sb.String()
}

// workloadOf names a pod's workload: its app label, else its name up to the last dash.
func workloadOf(p *corev1.Pod) string {
	if a, ok := p.Labels["app"]; ok {
		return a
	}
	if i := strings.LastIndex(p.Name, "-"); i > 0 {
		return p.Name[:i]
	}
	return p.Name
}

// decision is one side's outcome.
type decision struct {
	claims        []launched
	unschedulable int
	cost          float64
	// target is, for Karpenter's side, the outcome as the emulation's guided search
	// (karpenter.Reach) follows it: each pod's NodeClaim in creation order, each NodeClaim's
	// pool, zones and size.
	target karpenter.Target
}

func newLaunched(pool, sku, ct string, price float64, pods []*corev1.Pod) launched {
	l := launched{pool: pool, sku: sku, capacityType: ct, price: price, pods: map[string]int{}}
	for _, p := range pods {
		l.pods[workloadOf(p)]++
	}
	return l
}

// claimsByKey sorts claims by their keys, kept beside them.
type claimsByKey struct {
	claims []launched
	keys   []string
}

func (s claimsByKey) Len() int           { return len(s.claims) }
func (s claimsByKey) Less(i, j int) bool { return s.keys[i] < s.keys[j] }
func (s claimsByKey) Swap(i, j int) {
	s.claims[i], s.claims[j] = s.claims[j], s.claims[i]
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
}

func (d *decision) finish() {
	// Each claim's key is made once, not in each of the sort's comparisons: the benchmark
	// times this as part of a decision.
	keys := make([]string, len(d.claims))
	for i := range d.claims {
		keys[i] = d.claims[i].key()
	}
	sort.Sort(claimsByKey{d.claims, keys})
	for _, c := range d.claims {
		d.cost += c.price
	}
}

// upstreamDecision runs Karpenter's scheduler (Solve), the provisioner's truncation of the
// options and its NodeClaim construction (ToNodeClaim), then the Azure provider's launch:
// resolveInstanceTypes' filter and the default allocation strategy.
func upstreamDecision(sc scenario) (decision, error) {
	run, err := upstreamRound(sc, nil, sc.pods)
	return run.decision, err
}

// azureCandidates is the Azure provider's resolveInstanceTypes filter over the pool's instance
// types, in their order: compatible with the NodeClaim's requirements, an available offering
// compatible with them, room for its requests. ToNodeClaim requires the instance type to be
// one of the (at most 60) truncated options; a type whose own requirement names it alone and
// is not among them fails the filter, so it is skipped before the full check (which was 11 %
// of the comparator's CPU time over a pool's ~1,000 types; TestAzureCandidatesSkipOnlyMisfits).
func azureCandidates(its []*cloudprovider.InstanceType, reqs kscheduling.Requirements, requests corev1.ResourceList) []*cloudprovider.InstanceType {
	named := reqs.Get(corev1.LabelInstanceTypeStable)
	if !reqs.Has(corev1.LabelInstanceTypeStable) || named.Operator() != corev1.NodeSelectorOpIn || !namesThemselves(its) {
		named = nil
	}
	var candidates []*cloudprovider.InstanceType
	for _, it := range its {
		if named != nil && !named.Has(it.Name) {
			continue
		}
		if azureFits(it, reqs, requests) {
			candidates = append(candidates, it)
		}
	}
	return candidates
}

// azureFits is resolveInstanceTypes' test of one instance type.
func azureFits(it *cloudprovider.InstanceType, reqs kscheduling.Requirements, requests corev1.ResourceList) bool {
	return reqs.Compatible(it.Requirements, v1beta1.AllowUndefinedWellKnownAndRestrictedLabels) == nil &&
		len(it.Offerings.Compatible(reqs).Available()) > 0 &&
		resources.Fits(requests, it.Allocatable())
}

// namesThemselves reports whether every instance type of the list allows its own name only on
// the instance-type key (In [name]), as the providers' types do: such a type is compatible
// with a NodeClaim only when the NodeClaim's instance-type requirement allows that name. It is
// worked out once per list (the scenarios share their region's).
func namesThemselves(its []*cloudprovider.InstanceType) bool {
	if len(its) == 0 {
		return true
	}
	key := listKey{&its[0], len(its)}
	namesMu.Lock()
	defer namesMu.Unlock()
	if v, ok := namesCache[key]; ok {
		return v
	}
	all := true
	for _, it := range its {
		r := it.Requirements.Get(corev1.LabelInstanceTypeStable)
		all = all && it.Requirements.Has(corev1.LabelInstanceTypeStable) && r.Operator() == corev1.NodeSelectorOpIn && r.Len() == 1 && r.Has(it.Name)
	}
	namesCache[key] = all
	return all
}

// listKey is a list's backing array and length; the cache holding it keeps the array alive, so
// its address is not reused by another list.
type listKey struct {
	array **cloudprovider.InstanceType
	n     int
}

var (
	namesMu    sync.Mutex
	namesCache = map[listKey]bool{}
)

// targetOf numbers Karpenter's NodeClaims in creation order (their hostname placeholders
// count up; the counter is global, so only the order matters) and records each pod's. Solve's
// FinalizeScheduling drops the placeholder from the requirements; the NodeClaim keeps it in an
// unexported field, read here by reflection (a test-only reading of upstream's own state).
func targetOf(ncs []*scheduling.NodeClaim) (karpenter.Target, map[*scheduling.NodeClaim]int) {
	ordered := slices.Clone(ncs)
	seqs := map[*scheduling.NodeClaim]int{}
	for _, nc := range ncs {
		h := reflect.ValueOf(nc).Elem().FieldByName("hostname").String()
		n, err := strconv.Atoi(strings.TrimPrefix(h, "hostname-placeholder-"))
		if err != nil {
			panic(fmt.Sprintf("Karpenter's NodeClaim hostname %q is not a numbered placeholder", h))
		}
		seqs[nc] = n
	}
	seq := func(nc *scheduling.NodeClaim) int { return seqs[nc] }
	slices.SortFunc(ordered, func(a, b *scheduling.NodeClaim) int { return seq(a) - seq(b) })
	t := karpenter.Target{Claim: map[types.UID]int{}}
	rank := map[*scheduling.NodeClaim]int{}
	for i, nc := range ordered {
		rank[nc] = i
		tc := karpenter.TargetClaim{NodePool: nc.NodePoolName}
		if z := nc.Requirements.Get(corev1.LabelTopologyZone); nc.Requirements.Has(corev1.LabelTopologyZone) && z.Operator() == corev1.NodeSelectorOpIn {
			tc.Zones = z.Values()
		}
		for _, p := range nc.Pods {
			t.Claim[p.UID] = i
			tc.Pods = append(tc.Pods, p.UID)
		}
		t.Claims = append(t.Claims, tc)
	}
	return t, rank
}

// emulatedDecision is the emulation's outcome on the same scenario.
func emulatedDecision(sc scenario) (decision, error) {
	res, err := karpenter.Solve(emulationInput(sc))
	if err != nil {
		return decision{}, err
	}
	return sc.decisionOf(res), nil
}

func emulationInput(sc scenario) karpenter.Input {
	in := karpenter.Input{NodePools: sc.pools, InstanceTypes: sc.its, Launchers: azureLaunchers(sc.pools), Pods: sc.pods, DaemonSetPods: sc.daemons, MinValuesBestEffort: sc.bestEffort, FixedTies: sc.fixedTies}
	if sc.eks {
		in.Launchers, in.WellKnownLabels = awsLaunchers(sc.pools)
	}
	return in
}

// emulation is the emulation's side of one scenario: its outcome with its own tie-breaks
// (Solve), from whose prepared round outcomes re-runs the round with others.
type emulation struct {
	sc       scenario
	in       karpenter.Input
	first    *karpenter.Result
	decision decision
}

func emulate(sc scenario) (emulation, error) {
	in := emulationInput(sc)
	first, err := karpenter.Solve(in)
	if err != nil {
		return emulation{}, err
	}
	return emulation{sc: sc, in: in, first: first, decision: sc.decisionOf(first)}, nil
}

// outcomes is the emulation's outcome with its own tie-breaks first, then the other outcomes
// its tie-breaks can give (karpenter.Outcomes, at most limit runs).
func (e emulation) outcomes(limit int) (out []decision, exhaustive bool, err error) {
	set, err := karpenter.Outcomes(e.in, e.first, limit, func(r *karpenter.Result) string { return e.sc.decisionOf(r).signature() })
	if err != nil {
		return nil, false, err
	}
	for _, r := range set.Results {
		out = append(out, e.sc.decisionOf(r))
	}
	return out, set.Exhaustive, nil
}

// decisionOf is the emulation's outcome as the comparator compares it. On EKS a NodeClaim's
// size is the set of its options the fleet's lowest price ties between (priceTies): which of
// equally priced pools EC2 picks is not known offline, so only the set is compared.
func (sc scenario) decisionOf(res *karpenter.Result) decision {
	d := decision{unschedulable: len(res.PodErrors)}
	for _, nc := range res.NodeClaims {
		if nc.Launch == nil {
			d.claims = append(d.claims, newLaunched(nc.NodePool, "(none)", "", math.NaN(), nc.Pods))
			continue
		}
		sku := nc.Launch.InstanceType.Name
		if sc.eks {
			sku = strings.Join(priceTies(nc.InstanceTypeOptions, nc.Requirements, nc.Launch.Offering.CapacityType(), nc.Launch.Offering.Price), "|")
		}
		d.claims = append(d.claims, newLaunched(nc.NodePool, sku, nc.Launch.Offering.CapacityType(), nc.Launch.Offering.Price, nc.Pods))
	}
	d.finish()
	return d
}

// signature identifies an outcome.
func (d decision) signature() string {
	var sb strings.Builder
	for _, c := range d.claims {
		sb.WriteString(c.key())
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "pending %d", d.unschedulable)
	return sb.String()
}

// compareDecisions returns "" when both launch the same NodeClaims (pool, size, capacity
// type, pods per workload) and leave the same number of pods pending, else the first
// difference.
func compareDecisions(ours, up decision) string {
	for i := 0; i < max(len(ours.claims), len(up.claims)); i++ {
		var o, u string
		if i < len(ours.claims) {
			o = ours.claims[i].key()
		}
		if i < len(up.claims) {
			u = up.claims[i].key()
		}
		if o != u {
			return fmt.Sprintf("NodeClaim %d of %d/%d: emulation %q, Karpenter %q", i+1, len(ours.claims), len(up.claims), o, u)
		}
	}
	if ours.unschedulable != up.unschedulable {
		return fmt.Sprintf("pending pods: emulation %d, Karpenter %d", ours.unschedulable, up.unschedulable)
	}
	return ""
}

// reachDecision asks the emulation whether some choice at its ties gives Karpenter's outcome
// up (karpenter.Reach, at most limit rounds and budget): found is that round's outcome, nil when none was
// found; exhaustive when none can be.
func reachDecision(sc scenario, up decision, limit int, budget time.Duration) (found *decision, runs int, exhaustive bool, err error) {
	in := emulationInput(sc)
	first, err := karpenter.Solve(in)
	if err != nil {
		return nil, 0, false, err
	}
	want := up.signature()
	r, err := karpenter.Reach(in, first, up.target, limit, time.Now().Add(budget), func(res *karpenter.Result) bool { return sc.decisionOf(res).signature() == want })
	if err != nil || r.Result == nil {
		return nil, r.Runs, r.Exhaustive, err
	}
	d := sc.decisionOf(r.Result)
	return &d, r.Runs, false, nil
}
