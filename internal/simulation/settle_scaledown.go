package simulation

import (
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/replicaset"
)

// KeepReplicas puts after's pods in place of the cluster's, as the workload controllers
// would. A workload is a namespace and groupOf's name; its replicas are its pods of one spec
// (one ReplicaSet). A pod whose workload After has with the same spec is a replica that may
// stay. When After has fewer such replicas, the ReplicaSet controller's ranking
// (replicaset.PodsToDelete, at now) picks the pods that go; the others stay where they are,
// as themselves. A node that lost a pod has a pod event now. Pods of a workload or spec
// After lacks go. After's pods without a staying pod to stand for are pending. StandsFor maps
// each staying pod to the After pod it counts as; tied says the ranking met pods it cannot
// tell apart (the controller's pick among them is random; name order was taken).
func KeepReplicas(cl *disruption.Cluster, after []*corev1.Pod, groupOf func(*corev1.Pod) string, now time.Time) (standsFor map[*corev1.Pod]*corev1.Pod, tied bool) {
	// A replica's spec is its template's: the node it is bound to is not part of it.
	specs := map[string][]corev1.PodSpec{}
	keyOf := func(p *corev1.Pod) (string, int) {
		g := p.Namespace + "/" + groupOf(p)
		spec := p.Spec
		spec.NodeName = ""
		for i, s := range specs[g] {
			if apiequality.Semantic.DeepEqual(s, spec) {
				return g, i
			}
		}
		return g, -1
	}
	type replicaSet struct {
		group string
		spec  int
	}
	want := map[replicaSet][]*corev1.Pod{}
	var order []replicaSet
	for _, p := range after {
		g, i := keyOf(p)
		if i < 0 {
			spec := p.Spec
			spec.NodeName = ""
			specs[g] = append(specs[g], spec)
			i = len(specs[g]) - 1
		}
		rs := replicaSet{g, i}
		if want[rs] == nil {
			order = append(order, rs)
		}
		want[rs] = append(want[rs], p)
	}
	// The cluster's replicas of each ReplicaSet, as the controller sees them: a bound pod on
	// its node, running and ready; a pending one unscheduled.
	views := map[replicaSet][]*corev1.Pod{}
	original := map[*corev1.Pod]*corev1.Pod{}
	add := func(p *corev1.Pod, node string) {
		g, i := keyOf(p)
		if i < 0 {
			return
		}
		rs := replicaSet{g, i}
		v := *p
		v.Spec.NodeName = node
		v.Status = corev1.PodStatus{Phase: corev1.PodPending}
		if node != "" {
			v.Status = corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}}
		}
		views[rs] = append(views[rs], &v)
		original[&v] = p
	}
	for _, n := range cl.Nodes {
		for _, p := range n.Pods {
			add(p, n.Name)
		}
	}
	for _, p := range cl.Pending {
		add(p, "")
	}
	stays := map[*corev1.Pod]bool{}
	standsFor = map[*corev1.Pod]*corev1.Pod{}
	var pending []*corev1.Pod
	for _, rs := range order {
		have := views[rs]
		gone, t := replicaset.PodsToDelete(have, have, len(have)-len(want[rs]), now)
		tied = tied || t
		leaves := map[*corev1.Pod]bool{}
		for _, v := range gone {
			leaves[v] = true
		}
		var staying []*corev1.Pod
		for _, v := range have {
			if !leaves[v] {
				staying = append(staying, original[v])
			}
		}
		// A staying pod stands for the After pod of its own name, else for the next unclaimed.
		sort.SliceStable(staying, func(i, j int) bool { return staying[i].Name < staying[j].Name })
		claimed := map[*corev1.Pod]bool{}
		byName := map[string]*corev1.Pod{}
		for _, q := range want[rs] {
			byName[q.Name] = q
		}
		var rest []*corev1.Pod
		for _, p := range staying {
			if q, ok := byName[p.Name]; ok && !claimed[q] {
				standsFor[p], claimed[q] = q, true
				continue
			}
			rest = append(rest, p)
		}
		free := make([]*corev1.Pod, 0, len(want[rs]))
		for _, q := range want[rs] {
			if !claimed[q] {
				free = append(free, q)
			}
		}
		for i, p := range rest {
			standsFor[p] = free[i]
		}
		pending = append(pending, free[len(rest):]...)
		for _, p := range staying {
			stays[p] = true
		}
	}
	for _, n := range cl.Nodes {
		var pods []*corev1.Pod
		for _, p := range n.Pods {
			if stays[p] {
				pods = append(pods, p)
			}
		}
		if len(pods) != len(n.Pods) {
			disruption.PodEvent(n, now)
		}
		n.Pods = pods
	}
	var stillPending []*corev1.Pod
	for _, p := range cl.Pending {
		if stays[p] {
			stillPending = append(stillPending, p)
		}
	}
	cl.Pending = append(stillPending, pending...)
	return standsFor, tied
}
