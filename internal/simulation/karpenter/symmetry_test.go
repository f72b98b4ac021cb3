package karpenter

import (
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

// zoneBlind identifies an outcome as a prediction's cost range does: each NodeClaim's pool,
// launched size, capacity type and pods, without its zones.
func zoneBlind(r *Result) string {
	var out []string
	for _, nc := range r.NodeClaims {
		var names []string
		for _, p := range nc.Pods {
			names = append(names, p.Name)
		}
		slices.Sort(names)
		size, ct := "(none)", ""
		if nc.Launch != nil {
			size, ct = nc.Launch.InstanceType.Name, nc.Launch.Offering.CapacityType()
		}
		out = append(out, fmt.Sprint(nc.NodePool, size, ct, names))
	}
	slices.Sort(out)
	return fmt.Sprint(out, len(r.PodErrors))
}

func keysOf(s OutcomeSet) []string {
	var out []string
	for _, r := range s.Results {
		out = append(out, zoneBlind(r))
	}
	slices.Sort(out)
	return out
}

// The walk modulo zones finds exactly the zone-blind outcomes of the full walk. Where zones
// are alike it takes fewer rounds. It keeps apart zones that a pod's node selector, a
// DaemonSet's affinity or a pool's requirement tells apart.
func TestEnumerateModuloZonesFindsTheSameOutcomes(t *testing.T) {
	zoneSelector := func(p *corev1.Pod, zone string) *corev1.Pod {
		p.Spec.NodeSelector = map[string]string{corev1.LabelTopologyZone: zone}
		return p
	}
	spread := func(pods []*corev1.Pod) []*corev1.Pod {
		for _, p := range pods {
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: corev1.LabelTopologyZone,
				WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": p.Labels["app"]}}}}
		}
		return pods
	}
	zonal := pool("general")
	zonal.Spec.Template.Spec.Requirements = append(zonal.Spec.Template.Spec.Requirements,
		karpv1.NodeSelectorRequirementWithMinValues{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"westeurope-1", "westeurope-2", "westeurope-3"}})
	daemon := pod("daemon", 0, "500m")
	daemon.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"westeurope-3"}}}}}}}}
	big := func(app string, n int, cpu string) []*corev1.Pod {
		var out []*corev1.Pod
		for i := range n {
			out = append(out, pod(app, i, cpu))
		}
		return out
	}
	cases := []struct {
		name      string
		pool      *karpv1.NodePool
		pods      []*corev1.Pod
		daemons   []*corev1.Pod
		fewerRuns bool
	}{
		{"alike zones", zonal, spread(big("spread", 6, "7")), nil, true},
		{"a pod pinned to one zone", zonal, append(spread(big("spread", 5, "7")), zoneSelector(pod("pinned", 0, "3"), "westeurope-2")), nil, false},
		{"a DaemonSet in one zone", zonal, spread(big("spread", 5, "7")), []*corev1.Pod{daemon}, false},
		{"zones and the regional placement", pool("general"), spread(big("spread", 5, "7")), nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := Input{NodePools: []*karpv1.NodePool{c.pool}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"general": westeurope()},
				Launchers: map[string]cloud.Launcher{"general": aks.NewCloud(nil)}, Pods: c.pods, DaemonSetPods: c.daemons}
			first, err := Solve(in)
			if err != nil {
				t.Fatal(err)
			}
			all, err := Enumerate(in, first, 10_000_000, zoneBlind)
			if err != nil {
				t.Fatal(err)
			}
			mod, err := EnumerateModuloZones(in, first, 10_000_000, zoneBlind)
			if err != nil {
				t.Fatal(err)
			}
			if !all.Exhaustive || !mod.Exhaustive || !slices.Equal(keysOf(all), keysOf(mod)) {
				t.Fatalf("full walk: %d outcomes in %d rounds (exhaustive %v); modulo zones: %d in %d (exhaustive %v); want the same outcomes, both exhaustive",
					len(all.Results), all.Runs, all.Exhaustive, len(mod.Results), mod.Runs, mod.Exhaustive)
			}
			if mod.Runs > all.Runs || (c.fewerRuns && mod.Runs*2 > all.Runs) {
				t.Errorf("modulo zones took %d rounds, the full walk %d", mod.Runs, all.Runs)
			}
			t.Logf("%d ties, %d outcomes: full walk %d rounds, modulo zones %d", first.Ties, len(mod.Results), all.Runs, mod.Runs)
		})
	}
}
