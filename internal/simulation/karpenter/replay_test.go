package karpenter

import (
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// targetOf is the outcome r as Reach follows it.
func targetOf(r *Result) Target {
	t := Target{Claim: map[types.UID]int{}}
	ncs := slices.Clone(r.NodeClaims)
	slices.SortFunc(ncs, func(a, b *NodeClaim) int { return a.seq - b.seq })
	for i, nc := range ncs {
		tc := TargetClaim{NodePool: nc.NodePool}
		if z := nc.Requirements.Get(corev1.LabelTopologyZone); nc.Requirements.Has(corev1.LabelTopologyZone) && z.Operator() == corev1.NodeSelectorOpIn {
			tc.Zones = z.Values()
		}
		if nc.Launch != nil {
			tc.InstanceType = nc.Launch.InstanceType.Name
		}
		for _, p := range nc.Pods {
			t.Claim[p.UID] = i
			tc.Pods = append(tc.Pods, p.UID)
		}
		t.Claims = append(t.Claims, tc)
	}
	return t
}

// placementsOf identifies an outcome by the zones of each NodeClaim and the pods on it.
func placementsOf(r *Result) string {
	var out []string
	for _, nc := range r.NodeClaims {
		var names []string
		for _, p := range nc.Pods {
			names = append(names, p.Name)
		}
		slices.Sort(names)
		out = append(out, fmt.Sprint(nc.Requirements.Get(corev1.LabelTopologyZone).String(), names))
	}
	slices.Sort(out)
	return fmt.Sprint(out)
}

func spreadPods(n int) []*corev1.Pod {
	var pods []*corev1.Pod
	for i := range n {
		p := pod("spread", i, fmt.Sprint(1+i%3))
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
			WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "spread"}}}}
		pods = append(pods, p)
	}
	return pods
}

// Reach finds every outcome of the exhaustive walk of the ties again, from the outcome alone,
// guided by it. In most cases the first round it tries is the outcome. It never needs more
// rounds than the walk.
func TestReachFindsEveryOutcomeOfTheTies(t *testing.T) {
	in := Input{NodePools: []*karpv1.NodePool{pool("general")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"general": regionTypes("eastus")}, Pods: spreadPods(5)}
	first, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	set, err := Outcomes(in, first, 1000, placementsOf)
	if err != nil {
		t.Fatal(err)
	}
	if !set.Exhaustive || len(set.Results) < 3 {
		t.Fatalf("%d outcomes (exhaustive %v); want at least one per zone of the first tie, all of them", len(set.Results), set.Exhaustive)
	}
	for i, want := range set.Results {
		got, err := Reach(in, first, targetOf(want), set.Runs, time.Time{}, func(r *Result) bool { return placementsOf(r) == placementsOf(want) })
		if err != nil {
			t.Fatal(err)
		}
		if got.Result == nil || got.Runs > set.Runs {
			t.Fatalf("outcome %d (%s): Reach found nothing in %d rounds (exhaustive %v)", i, placementsOf(want), got.Runs, got.Exhaustive)
		}
	}
}

// An outcome the rules cannot give, a pod on a pool that does not exist, is not found. Reach
// says it searched every tie-break that could lead to it. It stops each round at its first
// binding instead of running it out.
func TestReachRulesOutAnImpossibleOutcome(t *testing.T) {
	in := Input{NodePools: []*karpv1.NodePool{pool("general")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"general": regionTypes("eastus")}, Pods: spreadPods(5)}
	first, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	target := targetOf(first)
	target.Claims[0].NodePool = "elsewhere"
	got, err := Reach(in, first, target, 1000, time.Time{}, func(*Result) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if got.Result != nil || !got.Exhaustive || got.Runs > first.tieArities[0] {
		t.Fatalf("found %v, exhaustive %v in %d rounds; want nothing, exhaustively, in at most one round per choice of the first tie (%d)", got.Result != nil, got.Exhaustive, got.Runs, first.tieArities[0])
	}
}

// lastTie takes the last alternative of every tie.
type lastTie struct{}

func (lastTie) Choose(n int) int { return n - 1 }

// u36Pods is the shape of u36-zones-eastus (testdata/unseen) that an uncut search cannot get
// through. First come StatefulSet pods (6 cpu, 32 GiB) on an arm64 pool in eastus. They have
// a required hostname anti-affinity and a ScheduleAnyway zone spread. The spread fits in the
// regional placement only. Karpenter either picks it, and the NodeClaim is pinned there. Or
// it picks a zone, fails, relaxes the spread and leaves the NodeClaim unpinned. Then come
// pods with a DoNotSchedule zone spread, which go where the pinned NodeClaims are.
func u36Pods(n int) []*corev1.Pod {
	var pods []*corev1.Pod
	self := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "ingest"}}
	for i := range n {
		p := pod("ingest", i, "6")
		p.Spec.Containers[0].Resources.Requests[corev1.ResourceMemory] = resource.MustParse("32Gi")
		p.Spec.NodeSelector = map[string]string{corev1.LabelArchStable: karpv1.ArchitectureArm64}
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 2, TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.ScheduleAnyway, LabelSelector: self}}
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{TopologyKey: corev1.LabelHostname, LabelSelector: self}}}}
		pods = append(pods, p)
	}
	for i := range 2 {
		p := pod("notify", i, "2")
		p.Spec.NodeSelector = map[string]string{corev1.LabelArchStable: karpv1.ArchitectureArm64}
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone, WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "notify"}}}}
		pods = append(pods, p)
	}
	return pods
}

// An outcome whose NodeClaims were never pinned to a zone is reached through the failed tries
// before it. It is not reached by enumerating their equivalent choices. Each pod's spread
// try fails in every zone but one, and a failed try leaves the round as it was. So the
// search explores one failing choice per try, not every combination of them (3^12 here).
// Nor does it take a NodeClaim pinned to the regional placement for the unpinned one it
// follows. Without both, the search runs past the budget (u36-zones-eastus: 39 of 40).
func TestReachGetsThroughFailedTries(t *testing.T) {
	in := Input{NodePools: []*karpv1.NodePool{pool("arm")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"arm": listedZoneTypes("eastus")}, Pods: u36Pods(12)}
	first, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	in.TieBreaks = lastTie{}
	want, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	in.TieBreaks = nil
	if placementsOf(want) == placementsOf(first) {
		t.Fatalf("the last choice at every tie gives the first outcome: %s", placementsOf(first))
	}
	pinned := 0
	for _, nc := range want.NodeClaims {
		if nc.Requirements.Has(corev1.LabelTopologyZone) && nc.Requirements.Get(corev1.LabelTopologyZone).Operator() == corev1.NodeSelectorOpIn {
			pinned++
		}
	}
	if pinned == len(want.NodeClaims) {
		t.Fatalf("every NodeClaim of the target is pinned to a zone: %s", placementsOf(want))
	}
	got, err := Reach(in, first, targetOf(want), 200, time.Time{}, func(r *Result) bool { return placementsOf(r) == placementsOf(want) })
	if err != nil {
		t.Fatal(err)
	}
	if got.Result == nil {
		t.Fatalf("not found in %d rounds (exhaustive %v); want %s", got.Runs, got.Exhaustive, placementsOf(want))
	}
	t.Logf("found in %d rounds", got.Runs)
}
