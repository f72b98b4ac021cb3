package simulation

import (
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

func replicaOf(owner, name, cpu string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Annotations: map[string]string{workload.OwnerAnnotation: owner}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse(cpu)}}}}},
	}
}

func nodeWith(name string, pods ...*corev1.Pod) *disruption.Node {
	return &disruption.Node{ExistingNode: karpenter.ExistingNode{Name: name, Pods: pods}}
}

// placement lists each node's pods and the pending pods, as "n1:web-0,web-1 n2: pending:x".
func placement(cl *disruption.Cluster) string {
	var parts []string
	list := func(pods []*corev1.Pod) string {
		names := make([]string, len(pods))
		for i, p := range pods {
			names[i] = p.Name
		}
		sort.Strings(names)
		return strings.Join(names, ",")
	}
	for _, n := range cl.Nodes {
		parts = append(parts, n.Name+":"+list(n.Pods))
	}
	return strings.Join(append(parts, "pending:"+list(cl.Pending)), " ")
}

// TestKeepReplicasDeletesWhatTheReplicaSetControllerRanksFirst scales web from 5 replicas to 2.
// Name order would keep web-0 and web-1; the controller deletes the pending replica first,
// then those sharing a node with more replicas, so one replica stays on each node.
func TestKeepReplicasDeletesWhatTheReplicaSetControllerRanksFirst(t *testing.T) {
	web := func(name string) *corev1.Pod { return replicaOf("Deployment/web", name, "1") }
	cl := &disruption.Cluster{
		Nodes:   []*disruption.Node{nodeWith("n1", web("web-0"), web("web-1"), web("web-2")), nodeWith("n2", web("web-3"))},
		Pending: []*corev1.Pod{web("web-4")},
	}
	after := []*corev1.Pod{web("web-0"), web("web-1")}
	standsFor, tied := KeepReplicas(cl, after, WorkloadOf, SettleEpoch)
	// n1 keeps one of its three: the ranking cannot tell them apart, so name order decides.
	if got, want := placement(cl), "n1:web-2 n2:web-3 pending:"; got != want {
		t.Errorf("placement = %s, want %s", got, want)
	}
	if !tied {
		t.Error("tied = false; n1's three replicas rank alike, one of them stays at random")
	}
	if len(standsFor) != 2 {
		t.Errorf("standsFor has %d pods, want the 2 that stay", len(standsFor))
	}
	for p, q := range standsFor {
		if q != after[0] && q != after[1] {
			t.Errorf("%s stands for %s, not an After pod", p.Name, q.Name)
		}
	}
}

// TestKeepReplicasKeepsWorkloadsApart scales one workload down and another up, and drops a
// workload After lacks and a replica whose spec After changed.
func TestKeepReplicasKeepsWorkloadsApart(t *testing.T) {
	web := func(name string) *corev1.Pod { return replicaOf("Deployment/web", name, "1") }
	api := func(name, cpu string) *corev1.Pod { return replicaOf("Deployment/api", name, cpu) }
	cl := &disruption.Cluster{Nodes: []*disruption.Node{
		nodeWith("n1", web("web-0"), api("api-0", "1"), replicaOf("Deployment/old", "old-0", "1")),
		nodeWith("n2", web("web-1"), web("web-2"), api("api-1", "1")),
	}}
	after := []*corev1.Pod{web("web-0"), web("web-1"), api("api-0", "2"), api("api-1", "2"), api("api-2", "2")}
	_, tied := KeepReplicas(cl, after, WorkloadOf, SettleEpoch)
	if got, want := placement(cl), "n1:web-0 n2:web-2 pending:api-0,api-1,api-2"; got != want {
		t.Errorf("placement = %s, want %s", got, want)
	}
	if !tied {
		t.Error("tied = false; n2's two web replicas rank alike")
	}
}

// TestKeepReplicasHonoursDeletionCost keeps the replica whose deletion costs more, though name
// order and co-location would delete it.
func TestKeepReplicasHonoursDeletionCost(t *testing.T) {
	web := func(name string) *corev1.Pod { return replicaOf("Deployment/web", name, "1") }
	dear := web("web-0")
	dear.Annotations[corev1.PodDeletionCost] = "100"
	cl := &disruption.Cluster{Nodes: []*disruption.Node{nodeWith("n1", dear, web("web-1")), nodeWith("n2", web("web-2"))}}
	_, tied := KeepReplicas(cl, []*corev1.Pod{web("web-0")}, WorkloadOf, SettleEpoch)
	if got, want := placement(cl), "n1:web-0 n2: pending:"; got != want {
		t.Errorf("placement = %s, want %s", got, want)
	}
	if tied {
		t.Error("tied = true; web-1 ranks first (co-located), then web-2, and web-0 costs more")
	}
}

// TestKeepReplicasStampsPodEvents restarts consolidateAfter on a node that lost a replica, as
// the pod-event controller does for a pod going terminating, except within its 10 s dedupe.
func TestKeepReplicasStampsPodEvents(t *testing.T) {
	web := func(name string) *corev1.Pod { return replicaOf("Deployment/web", name, "1") }
	claimed := func(n *disruption.Node, last time.Time) *disruption.Node {
		n.NodeClaim = &karpv1.NodeClaim{Status: karpv1.NodeClaimStatus{LastPodEventTime: metav1.NewTime(last)}}
		return n
	}
	now := SettleEpoch.Add(time.Hour)
	lost := claimed(nodeWith("lost", web("web-0"), web("web-1")), SettleEpoch)
	recent := claimed(nodeWith("recent", web("web-2"), web("web-3")), now.Add(-5*time.Second))
	kept := claimed(nodeWith("kept", web("web-4")), SettleEpoch)
	cl := &disruption.Cluster{Nodes: []*disruption.Node{lost, recent, kept}}
	// The four replicas sharing a node rank first; of them name order takes web-0 to web-2.
	KeepReplicas(cl, []*corev1.Pod{web("web-0"), web("web-1")}, WorkloadOf, now)
	if got, want := placement(cl), "lost: recent:web-3 kept:web-4 pending:"; got != want {
		t.Fatalf("placement = %s, want %s", got, want)
	}
	for _, c := range []struct {
		n    *disruption.Node
		want time.Time
	}{{lost, now}, {recent, now.Add(-5 * time.Second)}, {kept, SettleEpoch}} {
		if got := c.n.NodeClaim.Status.LastPodEventTime.Time; !got.Equal(c.want) {
			t.Errorf("%s: last pod event %s, want %s", c.n.Name, got, c.want)
		}
	}
}
