package simulation

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

const poolYAML = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
%s`

func pool(t testing.TB, extra string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(strings.Replace(poolYAML, "%s", extra, 1)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func pod(name string, cpu, mem string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{
		Name: "a", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(mem)}},
	}}}}
}

var testSolver = analysis.New(catalog.Default())

// The optimal mode sizes a node for what the whole pod requests: an init container larger than
// the containers (simmodel.WorkloadsFromPods alone reads only the containers).
func TestOptimalCountsInitContainers(t *testing.T) {
	p := pod("migrate", "500m", "512Mi")
	p.Spec.InitContainers = []corev1.Container{{Name: "init", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
		corev1.ResourceCPU: resource.MustParse("7"), corev1.ResourceMemory: resource.MustParse("8Gi")}}}}
	res, err := Simulate(context.Background(), testSolver, Input{Region: "westeurope", NodePools: []map[string]any{pool(t, "")}, Pods: []*corev1.Pod{p}}, Optimal)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Optimal.Nodes) != 1 {
		t.Fatalf("nodes = %+v", res.Optimal.Nodes)
	}
	n := res.Optimal.Nodes[0]
	if n.Requested.Cpu().Cmp(resource.MustParse("7")) < 0 || n.Allocatable.Cpu().Cmp(resource.MustParse("7")) < 0 {
		t.Fatalf("node %s requested %v allocatable %v: the init container's 7 CPU were not counted", n.SKU, n.Requested.Cpu(), n.Allocatable.Cpu())
	}
	// The node class's defaults, and the node's zone (the catalog lists no size's in westeurope).
	if len(res.Assumptions) != 2 || !strings.Contains(res.Assumptions[0], "AKSNodeClass \"default\" is not in the input") ||
		!strings.Contains(res.Assumptions[1], "zones ASSUMED") {
		t.Errorf("assumptions = %v", res.Assumptions)
	}
}

// DaemonSet pods count on a pool's nodes only when Karpenter would run them there: they
// tolerate its taints and their node selector is compatible with its requirements.
func TestDaemonOverheadPerPool(t *testing.T) {
	tainted := pool(t, "      taints: [{key: dedicated, value: gpu, effect: NoSchedule}]")
	tainted["metadata"].(map[string]any)["name"] = "gpu"
	p, err := analysis.PoolFromObject(tainted)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := analysis.PoolFromObject(pool(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	everywhere := pod("agent", "100m", "100Mi")
	everywhere.Spec.Tolerations = []corev1.Toleration{{Operator: corev1.TolerationOpExists}}
	untolerating := pod("metrics", "100m", "100Mi")
	linuxOnly := pod("linux", "100m", "100Mi")
	linuxOnly.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "linux"}
	windows := pod("win", "100m", "100Mi")
	windows.Spec.NodeSelector = map[string]string{"karpenter.sh/nodepool": "other"}
	for _, tc := range []struct {
		pool *analysis.Pool
		pod  *corev1.Pod
		want bool
	}{
		{p, everywhere, true}, {p, untolerating, false}, {plain, untolerating, true},
		{plain, linuxOnly, true}, {plain, windows, false},
	} {
		if got := daemonRunsOn(tc.pool, tc.pod, analysis.Builtin().Default().WellKnownLabels()); got != tc.want {
			t.Errorf("%s on %s (tainted %v): %v, want %v", tc.pod.Name, tc.pool.Name, tc.pool.HasTaint(), got, tc.want)
		}
	}
	// Each pool's nodes carry their own DaemonSets: the optimum no longer charges every node the
	// largest overhead, which made its lower bound too high on the pools with less.
	got := DaemonOverheads([]*corev1.Pod{everywhere, untolerating}, []simmodel.SimPool{{Pool: p}, {Pool: plain}})
	if o := got[p.Name]; o.Cpu().Cmp(resource.MustParse("100m")) != 0 || o.Pods().Value() != 1 {
		t.Errorf("overhead on the tainted pool = %v, want cpu 100m, 1 pod", o)
	}
	if o := got[plain.Name]; o.Cpu().Cmp(resource.MustParse("200m")) != 0 || o.Pods().Value() != 2 {
		t.Errorf("overhead on the plain pool = %v, want cpu 200m, 2 pods", o)
	}
}

// Results name pods by their workload, as the reader annotates them, in both modes; both
// modes place every pod.
func TestModesNameWorkloads(t *testing.T) {
	var pods []*corev1.Pod
	for i := 0; i < 3; i++ {
		p := pod(fmt.Sprintf("web-%d", i), "1", "1Gi")
		p.Annotations = map[string]string{workload.OwnerAnnotation: "Deployment/web"}
		pods = append(pods, p)
	}
	res, err := Simulate(context.Background(), testSolver, Input{Region: "westeurope", NodePools: []map[string]any{pool(t, "")}, Pods: pods}, Both)
	if err != nil {
		t.Fatal(err)
	}
	for mode, sim := range map[string]*simmodel.Simulation{Karpenter: res.Karpenter, Optimal: res.Optimal} {
		if sim.ScheduledPods != 3 || len(sim.Nodes) == 0 {
			t.Errorf("%s: %d pods on %d nodes, want 3 placed", mode, sim.ScheduledPods, len(sim.Nodes))
		}
		for _, n := range sim.Nodes {
			for _, pc := range n.Pods {
				if pc.Workload != "Deployment/web" {
					t.Errorf("%s: workload %q, want Deployment/web", mode, pc.Workload)
				}
			}
		}
	}
	if res.Karpenter.Method != simmodel.MethodKarpenter || res.Optimal.Method != simmodel.MethodOptimal {
		t.Errorf("methods %q, %q", res.Karpenter.Method, res.Optimal.Method)
	}
}

// hostnamePods are n pods of Deployment/name with the given scheduling terms on their own pods
// (app=name).
func hostnamePods(name string, n int, cpu string, tweak func(*corev1.Pod)) []*corev1.Pod {
	var out []*corev1.Pod
	for i := 0; i < n; i++ {
		p := pod(fmt.Sprintf("%s-%d", name, i), cpu, "256Mi")
		p.Labels = map[string]string{"app": name}
		p.Annotations = map[string]string{workload.OwnerAnnotation: "Deployment/" + name}
		tweak(p)
		out = append(out, p)
	}
	return out
}

func own(name string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}}
}

// Six small pods with required anti-affinity on themselves over kubernetes.io/hostname need six
// nodes, in the optimum as in Karpenter's decision, and the lower bound counts those nodes
// (six small pods fit one D2s_v5 by their requests: the optimum that ignored the term packed
// them on one node, below what any placement can cost, and KRP118 compared Karpenter with it).
// A hostname spread of maxSkew 2 allows two per node. Zone anti-affinity is ignored, and said.
func TestOptimalHostnameAntiAffinityAndSpread(t *testing.T) {
	anti := hostnamePods("ha", 6, "100m", func(p *corev1.Pod) {
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
			{TopologyKey: corev1.LabelHostname, LabelSelector: own("ha")}}}}
	})
	spread := hostnamePods("sp", 6, "100m", func(p *corev1.Pod) {
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 2, TopologyKey: corev1.LabelHostname, WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: own("sp")}}
	})
	for _, tc := range []struct {
		name  string
		pods  []*corev1.Pod
		nodes int
	}{{"anti-affinity", anti, 6}, {"hostname spread", spread, 3}} {
		res, err := Simulate(context.Background(), testSolver, Input{Region: "westeurope", NodePools: []map[string]any{pool(t, "")}, Pods: tc.pods}, Both)
		if err != nil {
			t.Fatal(err)
		}
		for mode, sim := range map[string]*simmodel.Simulation{Karpenter: res.Karpenter, Optimal: res.Optimal} {
			if sim.ScheduledPods != 6 || len(sim.Nodes) < tc.nodes {
				t.Errorf("%s, %s: %d pods on %d nodes, want 6 on at least %d", tc.name, mode, sim.ScheduledPods, len(sim.Nodes), tc.nodes)
			}
		}
		// The cheapest D-family size in westeurope is Standard_D2s_v5 or smaller; every node
		// costs at least the cheapest node the pool admits.
		cheapest := math.Inf(1)
		for _, n := range res.Optimal.Nodes {
			cheapest = math.Min(cheapest, n.HourlyPrice)
		}
		if res.Optimal.LowerBound < float64(tc.nodes)*cheapest*0.999 {
			t.Errorf("%s: lower bound %v below %d nodes at $%v", tc.name, res.Optimal.LowerBound, tc.nodes, cheapest)
		}
		for _, a := range res.Assumptions {
			if strings.Contains(a, "optimal mode ignores") {
				t.Errorf("%s: assumption %q: the term is modelled", tc.name, a)
			}
		}
	}

	zoneAnti := hostnamePods("za", 2, "100m", func(p *corev1.Pod) {
		p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{
			{TopologyKey: corev1.LabelTopologyZone, LabelSelector: own("za")}}}}
	})
	res, err := Simulate(context.Background(), testSolver, Input{Region: "westeurope", NodePools: []map[string]any{pool(t, "")}, Pods: zoneAnti}, Optimal)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Assumptions, func(a string) bool {
		return strings.Contains(a, "optimal mode ignores pod anti-affinity other than") && strings.Contains(a, "Deployment/za")
	}) {
		t.Errorf("zone anti-affinity: assumptions %v do not say the optimum ignores it", res.Assumptions)
	}
}
