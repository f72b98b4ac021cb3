package karpenter

import (
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

func regionTypes(region string) []*cloudprovider.InstanceType {
	res := aks.List(catalog.Default(), region, aks.NodeClass{}, aks.Cluster{})
	out := make([]*cloudprovider.InstanceType, len(res.InstanceTypes))
	for i, it := range res.InstanceTypes {
		out[i] = it.InstanceType
	}
	return out
}

// listedZoneTypes is regionTypes with the zones Azure lists only. A size without a Resource
// SKUs zone listing in the catalog keeps its regional offering ("0"). It loses the zones the
// catalog assumes for it. So a region mixes zonal and regional-only sizes, as Azure's full
// zone data would.
func listedZoneTypes(region string) []*cloudprovider.InstanceType {
	res := aks.List(catalog.Default(), region, aks.NodeClass{}, aks.Cluster{})
	out := make([]*cloudprovider.InstanceType, len(res.InstanceTypes))
	for i, it := range res.InstanceTypes {
		out[i] = it.InstanceType
		if it.ZonesKnown {
			continue
		}
		var regional cloudprovider.Offerings
		for _, o := range it.Offerings {
			if cloud.ZoneOf(o) == "0" {
				regional = append(regional, o)
			}
		}
		out[i] = &cloudprovider.InstanceType{Name: it.Name, Requirements: it.Requirements, Offerings: regional, Capacity: it.Capacity, Overhead: it.Overhead}
	}
	return out
}

// zonesOf identifies an outcome by the zone requirement of each NodeClaim.
func zonesOf(r *Result) string {
	var zs []string
	for _, nc := range r.NodeClaims {
		zs = append(zs, nc.Requirements.Get(corev1.LabelTopologyZone).String())
	}
	sort.Strings(zs)
	return strings.Join(zs, ";")
}

// The first pod of a zone spread finds every zone at count 0: Karpenter takes the first of a
// map range, a random zone. The emulation takes the first by name, counts the tie, and
// Outcomes re-runs the round with each other choice.
func TestZoneSpreadTieIsCountedAndEveryChoiceReRun(t *testing.T) {
	p := pod("spread", 0, "1")
	p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
		WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "spread"}}}}
	in := Input{NodePools: []*karpv1.NodePool{pool("general")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"general": regionTypes("eastus")}, Pods: []*corev1.Pod{p}}
	first, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	if first.Ties != 1 || len(first.NodeClaims) != 1 {
		t.Fatalf("%d ties, %d NodeClaims; want 1 tie (the first zone) and 1 NodeClaim", first.Ties, len(first.NodeClaims))
	}
	set, err := Outcomes(in, first, 16, zonesOf)
	if err != nil {
		t.Fatal(err)
	}
	zones := map[string]bool{}
	for _, r := range set.Results {
		zones[r.NodeClaims[0].Requirements.Get(corev1.LabelTopologyZone).Values()[0]] = true
	}
	if !set.Exhaustive || set.Runs != first.tieArities[0] || len(zones) != first.tieArities[0] || len(zones) < 3 {
		t.Fatalf("outcomes: %d runs, exhaustive %v, zones %v; want one run per zone of the %d-way tie", set.Runs, set.Exhaustive, zones, first.tieArities[0])
	}
	if got := first.NodeClaims[0].Requirements.Get(corev1.LabelTopologyZone).Values()[0]; got != set.Results[0].NodeClaims[0].Requirements.Get(corev1.LabelTopologyZone).Values()[0] {
		t.Fatalf("the first outcome is not Solve's own")
	}
}

// A pool whose DaemonSet runs on amd64 sizes only has two daemon groups, one without a pod.
// Karpenter folds the groups' overheads with resources.MinResources in map order: the empty
// group first gives the DaemonSet's overhead, last gives none. The emulation counts the order
// as a tie and re-runs it.
func TestDaemonOverheadOrderIsATie(t *testing.T) {
	daemon := amd64DaemonSetPod()
	in := Input{NodePools: []*karpv1.NodePool{pool("general")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"general": westeurope()},
		Pods: []*corev1.Pod{pod("app", 0, "1")}, DaemonSetPods: []*corev1.Pod{daemon}}
	first, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	if first.Ties != 1 {
		t.Fatalf("%d ties, want 1 (the order of the two daemon groups)", first.Ties)
	}
	set, err := Outcomes(in, first, 16, func(r *Result) string { return r.NodeClaims[0].Requests.Cpu().String() })
	if err != nil {
		t.Fatal(err)
	}
	if !set.Exhaustive || len(set.Results) != 2 {
		t.Fatalf("%d outcomes (exhaustive %v), want 2", len(set.Results), set.Exhaustive)
	}
	with, without := set.Results[0].NodeClaims[0].Requests.Cpu(), set.Results[1].NodeClaims[0].Requests.Cpu()
	if want := resource.MustParse("1500m"); with.Cmp(want) != 0 || without.Cmp(resource.MustParse("1")) != 0 {
		t.Fatalf("requests %s (key order) and %s (reversed); want 1500m (the DaemonSet's overhead) and 1 (none)", with, without)
	}
}

// twoZonePool is an eastus pool that may use two zones only, which offer different sizes.
func twoZonePool() *karpv1.NodePool {
	np := pool("general")
	np.Spec.Template.Spec.Requirements = append(np.Spec.Template.Spec.Requirements,
		karpv1.NodeSelectorRequirementWithMinValues{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"eastus-1", "eastus-3"}})
	return np
}

// Enumerate finds exactly the outcomes of every combination of choices, distinct by each
// NodeClaim's zone and pods. Those are what Outcomes' odometer finds with a budget large
// enough to walk them all. Enumerate says it has them all, and takes fewer rounds. A pod
// tried on NodeClaims it does not fit meets a tie at each. The combinations of those failed
// tries' choices all give the same round.
func TestEnumerateFindsEveryOutcomeOfTwoTiedZones(t *testing.T) {
	var pods []*corev1.Pod
	for i := range 5 {
		p := pod("spread", i, "7")
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
			WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "spread"}}}}
		pods = append(pods, p)
	}
	in := Input{NodePools: []*karpv1.NodePool{twoZonePool()}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"general": regionTypes("eastus")}, Pods: pods}
	first, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	all, err := Outcomes(in, first, 100000, placementsOf)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Enumerate(in, first, 1_000_000, placementsOf)
	if err != nil {
		t.Fatal(err)
	}
	keys := func(s OutcomeSet) []string {
		var out []string
		for _, r := range s.Results {
			out = append(out, placementsOf(r))
		}
		sort.Strings(out)
		return out
	}
	if !all.Exhaustive || !got.Exhaustive || strings.Join(keys(all), "\n") != strings.Join(keys(got), "\n") || len(all.Results) < 2 {
		t.Fatalf("odometer: %d outcomes in %d runs (exhaustive %v); Enumerate: %d in %d (exhaustive %v); want the same outcomes, at least 2, both exhaustive\n%v\n%v",
			len(all.Results), all.Runs, all.Exhaustive, len(got.Results), got.Runs, got.Exhaustive, keys(all), keys(got))
	}
	if got.Runs > all.Runs {
		t.Errorf("Enumerate took %d rounds, the odometer %d", got.Runs, all.Runs)
	}
	t.Logf("%d ties, %d outcomes: odometer %d runs, Enumerate %d", first.Ties, len(got.Results), all.Runs, got.Runs)
}

// A zone-spread pod without node requirements is tried on a NodeClaim whose zone is still
// open. It asks the topology for its domains once, as Karpenter's CanAdd does. So the tie
// among eastus' zone domains is met once, not again when its narrowed requirements are
// added. The domains are its three zones and the regional "0".
func TestTopologyTieOnAnOpenNodeClaimIsCountedOnce(t *testing.T) {
	plain := pod("plain", 0, "2")
	spread := pod("spread", 0, "1")
	spread.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
		WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "spread"}}}}
	in := Input{NodePools: []*karpv1.NodePool{pool("general")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"general": regionTypes("eastus")},
		Pods: []*corev1.Pod{plain, spread}}
	first, err := Solve(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.NodeClaims) != 1 || len(first.NodeClaims[0].Pods) != 2 {
		t.Fatalf("%d NodeClaims; want both pods on one", len(first.NodeClaims))
	}
	if first.Ties != 1 || first.tieArities[0] != 4 {
		t.Fatalf("%d ties %v; want 1, the spread pod's choice among eastus' 4 zone domains", first.Ties, first.tieArities)
	}
	set, err := Enumerate(in, first, 1000, zonesOf)
	if err != nil {
		t.Fatal(err)
	}
	if !set.Exhaustive || len(set.Results) != 4 || set.Runs != 4 {
		t.Fatalf("%d outcomes in %d runs (exhaustive %v); want the 4 domains in 4 runs", len(set.Results), set.Runs, set.Exhaustive)
	}
}

// amd64DaemonSetPod is a DaemonSet's pod of 500m that runs on amd64 sizes only: a pool of both
// architectures then has two daemon groups, one without it.
func amd64DaemonSetPod() *corev1.Pod {
	daemon := pod("daemon", 0, "500m")
	daemon.Namespace = "kube-system"
	daemon.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: corev1.LabelArchStable, Operator: corev1.NodeSelectorOpIn, Values: []string{karpv1.ArchitectureAmd64}}}}}}}}
	return daemon
}
