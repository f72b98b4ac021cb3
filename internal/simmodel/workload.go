package simmodel

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/karpenter/pkg/utils/resources"
)

// Workload is a set of identical pending pods, as a Deployment's replicas are.
type Workload struct {
	Name  string
	Count int
	// Requests of one pod (cpu, memory, nvidia.com/gpu, ...).
	Requests     corev1.ResourceList
	Labels       map[string]string
	NodeSelector map[string]string
	// NodeAffinity is one required node selector term (its expressions are ANDed).
	NodeAffinity []corev1.NodeSelectorRequirement
	Tolerations  []corev1.Toleration
	// ZoneSpread, when positive, is the maxSkew of a DoNotSchedule topology spread constraint
	// over topology.kubernetes.io/zone whose selector matches this workload's own pods.
	ZoneSpread int32
}

// Pod returns the i-th pod of the workload as the API server would hold it pending; the
// benchmarks give the same pods to Karpenter's scheduler.
func (w Workload) Pod(i int) *corev1.Pod {
	labels := maps.Clone(w.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	if _, ok := labels["app"]; !ok {
		labels["app"] = w.Name
	}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:      fmt.Sprintf("%s-%d", w.Name, i),
			Namespace: "default",
			UID:       types.UID(fmt.Sprintf("%s-%d", w.Name, i)),
			Labels:    labels,
		},
		Spec: corev1.PodSpec{
			NodeSelector: maps.Clone(w.NodeSelector),
			Tolerations:  slices.Clone(w.Tolerations),
			Containers: []corev1.Container{{
				Name:      "main",
				Resources: corev1.ResourceRequirements{Requests: w.Requests.DeepCopy()},
			}},
		},
		Status: corev1.PodStatus{Phase: corev1.PodPending},
	}
	if len(w.NodeAffinity) > 0 {
		p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: slices.Clone(w.NodeAffinity)}},
			},
		}}
	}
	if w.ZoneSpread > 0 {
		p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
			MaxSkew:           w.ZoneSpread,
			TopologyKey:       corev1.LabelTopologyZone,
			WhenUnsatisfiable: corev1.DoNotSchedule,
			LabelSelector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": labels["app"]}},
		}}
	}
	return p
}

// Pods expands workloads into their pods.
func Pods(ws []Workload) []*corev1.Pod {
	var out []*corev1.Pod
	for _, w := range ws {
		for i := 0; i < w.Count; i++ {
			out = append(out, w.Pod(i))
		}
	}
	return out
}

// WorkloadsFromPods groups pending pods into workloads of identical scheduling shape: the same
// requests, labels, node selector, first required node selector term, tolerations and zone
// spread. A zone spread constraint is modelled as counting the workload's own pods, which is
// what a Deployment's usual selector does.
func WorkloadsFromPods(pods []*corev1.Pod) []Workload {
	ws, _ := GroupPods(pods)
	return ws
}

// GroupPods is WorkloadsFromPods with, per pod, the index of its workload.
func GroupPods(pods []*corev1.Pod) ([]Workload, []int) {
	byKey := map[string]int{}
	var out []Workload
	index := make([]int, len(pods))
	for pi, p := range pods {
		w := workloadOf(p)
		key := shapeKey(w)
		if i, ok := byKey[key]; ok {
			out[i].Count++
			index[pi] = i
			continue
		}
		byKey[key] = len(out)
		index[pi] = len(out)
		w.Name = p.Name
		if app, ok := p.Labels["app"]; ok {
			w.Name = app
		}
		out = append(out, w)
	}
	// Distinct shapes may share an app label; names must identify workloads in reports.
	seen := map[string]int{}
	for i := range out {
		seen[out[i].Name]++
		if n := seen[out[i].Name]; n > 1 {
			out[i].Name = fmt.Sprintf("%s#%d", out[i].Name, n)
		}
	}
	return out, index
}

func workloadOf(p *corev1.Pod) Workload {
	// Requests as Karpenter counts them: containers, init and sidecar containers, pod overhead.
	w := Workload{Count: 1, Labels: p.Labels, NodeSelector: p.Spec.NodeSelector, Tolerations: p.Spec.Tolerations, Requests: resources.Ceiling(p).Requests}
	if w.Requests == nil {
		w.Requests = corev1.ResourceList{}
	}
	if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		if terms := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms; len(terms) > 0 {
			w.NodeAffinity = terms[0].MatchExpressions
		}
	}
	for _, c := range p.Spec.TopologySpreadConstraints {
		if c.TopologyKey == corev1.LabelTopologyZone && c.WhenUnsatisfiable == corev1.DoNotSchedule {
			w.ZoneSpread = c.MaxSkew
		}
	}
	return w
}

// shapeKey identifies a workload's scheduling shape. It is built with plain string writes:
// grouping is per pod, and formatting with fmt made it a tenth of a 5,000-pod simulation.
func shapeKey(w Workload) string {
	var sb strings.Builder
	sep := func() { sb.WriteByte(0) }
	writeMap := func(m map[string]string) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			sb.WriteString(k)
			sb.WriteByte('=')
			sb.WriteString(m[k])
			sep()
		}
		sb.WriteByte(1)
	}
	names := make([]string, 0, len(w.Requests))
	for k := range w.Requests {
		names = append(names, string(k))
	}
	sort.Strings(names)
	for _, k := range names {
		q := w.Requests[corev1.ResourceName(k)]
		sb.WriteString(k)
		sb.WriteByte('=')
		sb.WriteString(q.String())
		sep()
	}
	sb.WriteByte(1)
	writeMap(w.Labels)
	writeMap(w.NodeSelector)
	for _, r := range w.NodeAffinity {
		sb.WriteString(r.Key)
		sep()
		sb.WriteString(string(r.Operator))
		for _, v := range r.Values {
			sep()
			sb.WriteString(v)
		}
		sb.WriteByte(2)
	}
	sb.WriteByte(1)
	sb.WriteString(TolerationKey(w.Tolerations))
	sb.WriteByte(1)
	sb.WriteString(strconv.Itoa(int(w.ZoneSpread)))
	return sb.String()
}

// SelectorKey identifies what a workload's node requirements and tolerations derive from.
func SelectorKey(w Workload) string {
	var sb strings.Builder
	for _, k := range slices.Sorted(maps.Keys(w.NodeSelector)) {
		sb.WriteString(k)
		sb.WriteByte('=')
		sb.WriteString(w.NodeSelector[k])
		sb.WriteByte(0)
	}
	sb.WriteByte(1)
	for _, r := range w.NodeAffinity {
		sb.WriteString(r.Key)
		sb.WriteByte(0)
		sb.WriteString(string(r.Operator))
		for _, v := range r.Values {
			sb.WriteByte(0)
			sb.WriteString(v)
		}
		sb.WriteByte(2)
	}
	sb.WriteByte(1)
	sb.WriteString(TolerationKey(w.Tolerations))
	return sb.String()
}

// TolerationKey is a canonical string for a set of tolerations (order does not matter).
func TolerationKey(ts []corev1.Toleration) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = fmt.Sprintf("%s/%s/%s/%s/%v", t.Key, t.Operator, t.Value, t.Effect, t.TolerationSeconds)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}
