package simulation

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
)

// startSnapshot holds a managed node (status allocatable), an unmanaged spot-less node without
// status, a NodeClaim not yet registered, their pods and one pending pod.
func startSnapshot() *clusterstate.Snapshot {
	managed := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "aks-general-1", Labels: map[string]string{
		karpv1.NodePoolLabelKey: "general", corev1.LabelInstanceTypeStable: "Standard_D4s_v5",
		corev1.LabelTopologyZone: "westeurope-1", karpv1.CapacityTypeLabelKey: "on-demand", corev1.LabelHostname: "aks-general-1",
	}, Annotations: map[string]string{karpv1.DoNotDisruptAnnotationKey: "true"}}}
	managed.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("3860m"), corev1.ResourceMemory: resource.MustParse("12Gi"), corev1.ResourcePods: resource.MustParse("110")}
	managed.Status.Capacity = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("4"), corev1.ResourceMemory: resource.MustParse("16Gi"), corev1.ResourcePods: resource.MustParse("110")}
	system := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "aks-system-0", Labels: map[string]string{
		corev1.LabelInstanceTypeStable: "Standard_D2s_v5", corev1.LabelTopologyZone: "westeurope-2",
	}}}
	system.Spec.Unschedulable = true
	claim := func(name, node string) *karpv1.NodeClaim {
		c := &karpv1.NodeClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{karpv1.NodePoolLabelKey: "general"},
			Annotations: map[string]string{karpv1.NodePoolHashAnnotationKey: "123"}}}
		c.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}
		c.Status.NodeName = node
		return c
	}
	inflight := claim("general-2", "")
	inflight.Spec.Requirements = []karpv1.NodeSelectorRequirementWithMinValues{
		{Key: corev1.LabelInstanceTypeStable, Operator: corev1.NodeSelectorOpIn, Values: []string{"Standard_D8s_v5"}},
		{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"westeurope-3"}},
		{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{"spot"}},
	}
	bound := func(name, node string, ds bool) *corev1.Pod {
		p := pod(name, "1", "1Gi")
		p.UID = types.UID("uid-" + name)
		p.Spec.NodeName = node
		if ds {
			yes := true
			p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "agent", Controller: &yes}}
		}
		return p
	}
	return &clusterstate.Snapshot{
		Nodes:      []*corev1.Node{system, managed},
		NodeClaims: []*karpv1.NodeClaim{claim("general-1", "aks-general-1"), inflight},
		Pods:       []*corev1.Pod{bound("web-1", "aks-general-1", false), bound("agent-1", "aks-general-1", true), pod("pending-1", "500m", "1Gi")},
	}
}

// The start state holds every Node and the NodeClaim not yet one, with the catalog's prices
// and, where the status has none, its allocatable.
func TestStartState(t *testing.T) {
	st := Start(testSolver, startSnapshot(), Input{Region: "westeurope"})
	if len(st.Nodes) != 3 {
		t.Fatalf("nodes %+v, want 3", st.Nodes)
	}
	byName := map[string]StartNode{}
	for _, n := range st.Nodes {
		byName[n.Name] = n
	}
	g := byName["aks-general-1"]
	if g.NodePool() != "general" || g.NodeClaim == nil || g.NodeClaim.Name != "general-1" || g.Allocatable.Cpu().MilliValue() != 3860 {
		t.Errorf("managed node %+v: want pool general, NodeClaim general-1, the status's 3860m", g)
	}
	if g.Annotations[karpv1.DoNotDisruptAnnotationKey] != "true" {
		t.Errorf("managed node annotations %v: want the Node's own", g.Annotations)
	}
	if len(g.Pods) != 1 || len(g.DaemonSetPods) != 1 || g.DaemonSetPods[0].Name != "agent-1" {
		t.Errorf("managed node pods %v, DaemonSet pods %v: want web-1 and agent-1", g.Pods, g.DaemonSetPods)
	}
	rt := testSolver.RegionTypes("westeurope", testSolver.Clouds().Default().DefaultNodeClass())
	want := rt.ByName("Standard_D4s_v5").OnDemand.Value
	if !g.PriceKnown || g.HourlyPrice != want || want == 0 {
		t.Errorf("managed node price %v (known %v), want the catalog's on-demand %v", g.HourlyPrice, g.PriceKnown, want)
	}
	s := byName["aks-system-0"]
	if s.NodePool() != "" || s.NodeClaim != nil {
		t.Errorf("system node %+v: want no pool, no NodeClaim", s)
	}
	if !equality.Semantic.DeepEqual(s.Allocatable, rt.ByName("Standard_D2s_v5").Allocatable()) {
		t.Errorf("system node allocatable %v, want the catalog's %v", s.Allocatable, rt.ByName("Standard_D2s_v5").Allocatable())
	}
	if len(s.Taints) != 1 || s.Taints[0].Key != corev1.TaintNodeUnschedulable {
		t.Errorf("cordoned node taints %v, want %s", s.Taints, corev1.TaintNodeUnschedulable)
	}
	f := byName["general-2"]
	if f.Labels[corev1.LabelInstanceTypeStable] != "Standard_D8s_v5" || f.Labels[karpv1.CapacityTypeLabelKey] != "spot" || !f.PriceKnown ||
		f.HourlyPrice != rt.ByName("Standard_D8s_v5").Spot.Value {
		t.Errorf("in-flight node %+v: want Standard_D8s_v5 spot at the catalog's spot price", f)
	}
	if len(st.Pending) != 1 || st.Pending[0].Name != "pending-1" {
		t.Errorf("pending %v, want pending-1", st.Pending)
	}
	if !strings.Contains(strings.Join(st.Assumptions, "\n"), "aks-system-0: no allocatable in its status") {
		t.Errorf("assumptions %q: want the catalog's allocatable said", st.Assumptions)
	}
}

// A node the catalog does not know keeps its status and says it has no price.
func TestStartStateUnknownType(t *testing.T) {
	snap := startSnapshot()
	snap.Nodes[1].Labels[corev1.LabelInstanceTypeStable] = "Standard_Imaginary"
	st := Start(testSolver, snap, Input{Region: "westeurope"})
	for _, n := range st.Nodes {
		if n.Name == "aks-general-1" && (n.PriceKnown || n.Allocatable.Cpu().MilliValue() != 3860) {
			t.Errorf("node %+v: want no price and the status's allocatable", n)
		}
	}
	if !strings.Contains(strings.Join(st.Assumptions, "\n"), `"Standard_Imaginary" is not in the catalog`) {
		t.Errorf("assumptions %q: want the unknown type said", st.Assumptions)
	}
}

// Karpenter's provisioning rounds start from the running nodes: a pod that fits on one binds
// to it, one that does not gets a NodeClaim.
func TestSimulateFromStartState(t *testing.T) {
	st := Start(testSolver, startSnapshot(), Input{Region: "westeurope"})
	big := pod("big", "12", "8Gi") // more than the in-flight Standard_D8s_v5 has
	res, err := Simulate(context.Background(), testSolver, Input{Region: "westeurope", NodePools: []map[string]any{pool(t, "")}, Pods: []*corev1.Pod{big}, Start: st}, Karpenter)
	if err != nil {
		t.Fatal(err)
	}
	p := res.Provisioned
	if len(p.Rounds) != 1 || p.Rounds[0].OnExistingNodes != 1 || p.Rounds[0].Placed != 2 || len(p.Rounds[0].Nodes) != 1 {
		t.Fatalf("rounds %+v: want one round placing the pending pod on a running node and big on a new one", p.Rounds)
	}
	empty, err := Simulate(context.Background(), testSolver, Input{Region: "westeurope", NodePools: []map[string]any{pool(t, "")}, Pods: []*corev1.Pod{big, pod("pending-1", "500m", "1Gi")}}, Karpenter)
	if err != nil {
		t.Fatal(err)
	}
	if empty.Provisioned.Rounds[0].OnExistingNodes != 0 {
		t.Errorf("an empty cluster has no running nodes to bind to: %+v", empty.Provisioned.Rounds[0])
	}
}

// A node whose NodeClaim is deleting is not the scheduler's, as StateNodes.Active leaves it
// out; its pods that Karpenter's pdb.Limits call reschedulable join the queue, a pod with an
// active do-not-disrupt annotation does not.
func TestStartStateDeletingNode(t *testing.T) {
	snap := startSnapshot()
	now := metav1.Now()
	snap.NodeClaims[0].DeletionTimestamp = &now
	stay := pod("stay-1", "100m", "100Mi")
	stay.UID, stay.Spec.NodeName = "uid-stay-1", "aks-general-1"
	stay.Annotations = map[string]string{karpv1.DoNotDisruptAnnotationKey: "true"}
	stay.Status.Phase = corev1.PodRunning
	snap.Pods = append(snap.Pods, stay)
	for _, p := range snap.Pods {
		p.Status.Phase = corev1.PodRunning
	}
	st := Start(testSolver, snap, Input{Region: "westeurope"})
	if len(st.Nodes) != 2 || len(st.Deleting) != 1 || st.Deleting[0].Name != "aks-general-1" {
		t.Fatalf("nodes %d, deleting %+v: want aks-general-1 deleting, 2 others", len(st.Nodes), st.Deleting)
	}
	var pending []string
	for _, p := range st.Pending {
		pending = append(pending, p.Name)
	}
	if strings.Join(pending, ",") != "pending-1,web-1" {
		t.Errorf("pending %v: want pending-1, then web-1 off the deleting node (not its DaemonSet pod, not stay-1)", pending)
	}
}
