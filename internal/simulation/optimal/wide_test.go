package optimal

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// wideExample is examples/simulate/wide as the optimum's input: its 1,000 pods (114
// Deployments, a third spread over zones with maxSkew 1) on its on-demand pool with a 2,000 vCPU
// limit, in westeurope, where every size's zones are assumed (all four: "0" and 1–3). The
// example's Deployments have one container, requests only, and no other scheduling terms.
func wideExample(t *testing.T) simmodel.SimulationInput {
	t.Helper()
	b, err := os.ReadFile("../../../examples/simulate/wide/workloads.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewYAMLOrJSONDecoder(bytes.NewReader(b), 4096)
	in := simmodel.SimulationInput{Region: "westeurope", Seed: 1,
		Pools: []simmodel.SimPool{testPool("general", 0, corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2000")}, nil, onDemandOnly)}}
	for {
		var d appsv1.Deployment
		if err := dec.Decode(&d); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		w := simmodel.Workload{Name: d.Name, Count: int(*d.Spec.Replicas), Requests: d.Spec.Template.Spec.Containers[0].Resources.Requests, Labels: d.Spec.Template.Labels}
		for _, c := range d.Spec.Template.Spec.TopologySpreadConstraints {
			if c.TopologyKey == corev1.LabelTopologyZone && c.WhenUnsatisfiable == corev1.DoNotSchedule {
				w.ZoneSpread = c.MaxSkew
			}
		}
		in.Workloads = append(in.Workloads, w)
	}
	if len(in.Workloads) != 114 {
		t.Fatalf("read %d workloads from the wide example, want 114", len(in.Workloads))
	}
	return in
}

// TestWideExampleWithAssumedZones: on the wide example, whose spread pods are split over four
// zones since every size's zones are assumed,
//
//   - the LP bound is the one the same pods have without the spread (the spread only
//     constrains), not 12 % below it as when the LP's cuts lost the sizes' pods to the zones;
//   - the zone copies take the configuration LP past maxPatternGroups, so the re-pack runs on
//     the zone relaxation, which lowers the greedy's cost, and keeps each spread workload's
//     pods within its maxSkew over the four zones.
func TestWideExampleWithAssumedZones(t *testing.T) {
	in := wideExample(t)
	sim := simulate(t, in)
	free := in
	free.Workloads = append([]simmodel.Workload(nil), in.Workloads...)
	for i := range free.Workloads {
		free.Workloads[i].ZoneSpread = 0
	}
	if unspread := simulate(t, free); sim.LowerBound < unspread.LowerBound*(1-1e-6) {
		t.Errorf("LP bound %v with the zone spread, %v without", sim.LowerBound, unspread.LowerBound)
	}

	md := compile(testSolver, "westeurope", in)
	if len(md.classes) != 1 || len(md.classes[0].zones) != 4 {
		t.Fatalf("want one pod class spread over 4 zones, got %d classes", len(md.classes))
	}
	pk := md.pack(0)
	groups := md.boundGroups(pk)
	if md.newColumnGeneration(groups, md.boundColumns(groups, md.pools)) != nil {
		t.Fatalf("%d groups: the zoned configuration LP is within maxPatternGroups, the relaxation is not exercised", len(groups))
	}
	greedy := pk.cost()
	pk = md.repackFromLP(pk)
	if pk.cost() > greedy*0.98 {
		t.Errorf("the re-pack from the zone relaxation took the greedy's $%.4f/h to $%.4f/h, want 2 %% or more off", greedy, pk.cost())
	}
	perZone := map[string]map[string]int{} // workload → zone → pods
	spread := map[string]int32{}
	for _, w := range in.Workloads {
		if w.ZoneSpread > 0 {
			spread[w.Name] = w.ZoneSpread
			perZone[w.Name] = map[string]int{}
		}
	}
	rep := md.report(pk)
	checkSimulation(t, testSolver, in, rep)
	for _, n := range rep.Nodes {
		for _, pc := range n.Pods {
			if m := perZone[pc.Workload]; m != nil {
				m[n.Zone] += pc.Count
			}
		}
	}
	for name, m := range perZone {
		lo, hi := math.MaxInt, 0
		for _, z := range md.classes[0].zones {
			lo, hi = min(lo, m[md.zones[z]]), max(hi, m[md.zones[z]])
		}
		if hi-lo > int(spread[name]) {
			t.Errorf("%s: pods per zone %v, skew %d above its maxSkew %d", name, m, hi-lo, spread[name])
		}
	}
}
