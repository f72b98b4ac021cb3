package simmodel

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"
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
	// HostnameSpread, when positive, is the maxSkew of a DoNotSchedule topology spread
	// constraint over kubernetes.io/hostname whose selector matches this workload's own pods.
	// Karpenter takes the minimum over hostnames as 0 (it can always open a node), so it
	// places at most HostnameSpread of them on one node (topologygroup.go).
	HostnameSpread int32
	// HostnameAntiAffinity is a required pod anti-affinity term over kubernetes.io/hostname
	// whose selector matches this workload's own pods: at most one of them on a node.
	HostnameAntiAffinity bool
}

// PerNode is the most of the workload's pods one node may hold under its hostname anti-affinity
// and hostname spread (0: no such cap).
func (w Workload) PerNode() int {
	switch {
	case w.HostnameAntiAffinity:
		return 1
	case w.HostnameSpread > 0:
		return int(w.HostnameSpread)
	}
	return 0
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
	own := &metav1.LabelSelector{MatchLabels: map[string]string{"app": labels["app"]}}
	if w.ZoneSpread > 0 {
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, corev1.TopologySpreadConstraint{
			MaxSkew:           w.ZoneSpread,
			TopologyKey:       corev1.LabelTopologyZone,
			WhenUnsatisfiable: corev1.DoNotSchedule,
			LabelSelector:     own,
		})
	}
	if w.HostnameSpread > 0 {
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, corev1.TopologySpreadConstraint{
			MaxSkew:           w.HostnameSpread,
			TopologyKey:       corev1.LabelHostname,
			WhenUnsatisfiable: corev1.DoNotSchedule,
			LabelSelector:     own.DeepCopy(),
		})
	}
	if w.HostnameAntiAffinity {
		if p.Spec.Affinity == nil {
			p.Spec.Affinity = &corev1.Affinity{}
		}
		p.Spec.Affinity.PodAntiAffinity = &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			TopologyKey: corev1.LabelHostname, LabelSelector: own.DeepCopy(),
		}}}
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
// requests, labels, node selector, first required node selector term, tolerations, zone
// spread, hostname spread and hostname anti-affinity. Only DoNotSchedule spreads and required
// anti-affinity terms whose selector matches the pod's own labels are kept: they are modelled
// as counting the workload's own pods, which is what a Deployment's usual selector does.
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
		// Replicas come one after another: a pod whose scheduling fields equal the previous
		// pod's is of its workload, without counting its requests again (that and the key
		// were a tenth of a 5,000-pod simulation).
		if pi > 0 && sameShape(p, pods[pi-1]) {
			i := index[pi-1]
			out[i].Count++
			index[pi] = i
			continue
		}
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

// sameShape reports whether two pods certainly give the same workload (workloadOf): every
// field it reads, directly or through resources.Ceiling (containers' requests, limits and
// restart policies, the pod's overhead and resources, its status), is equal. It may answer
// false for pods of one shape (a quantity's cached string, say): they then take the full path.
func sameShape(a, b *corev1.Pod) bool {
	if a.Namespace != b.Namespace || !maps.Equal(a.Labels, b.Labels) || !maps.Equal(a.Spec.NodeSelector, b.Spec.NodeSelector) ||
		!sameContainers(a.Spec.Containers, b.Spec.Containers) || !sameContainers(a.Spec.InitContainers, b.Spec.InitContainers) {
		return false
	}
	if (len(a.Spec.Tolerations) > 0 || len(b.Spec.Tolerations) > 0) && !reflect.DeepEqual(a.Spec.Tolerations, b.Spec.Tolerations) {
		return false
	}
	if (a.Spec.Affinity != nil || b.Spec.Affinity != nil) && !reflect.DeepEqual(a.Spec.Affinity, b.Spec.Affinity) {
		return false
	}
	if len(a.Spec.TopologySpreadConstraints) != len(b.Spec.TopologySpreadConstraints) {
		return false
	}
	for i, c := range a.Spec.TopologySpreadConstraints {
		d := b.Spec.TopologySpreadConstraints[i]
		if c.MaxSkew != d.MaxSkew || c.TopologyKey != d.TopologyKey || c.WhenUnsatisfiable != d.WhenUnsatisfiable {
			return false
		}
		if !reflect.DeepEqual(c, d) {
			return false
		}
	}
	if (len(a.Spec.Overhead) > 0 || len(b.Spec.Overhead) > 0) && !sameList(a.Spec.Overhead, b.Spec.Overhead) {
		return false
	}
	if (a.Spec.Resources != nil || b.Spec.Resources != nil) && !reflect.DeepEqual(a.Spec.Resources, b.Spec.Resources) {
		return false
	}
	return a.Status.Phase == b.Status.Phase && (emptyStatus(a.Status) && emptyStatus(b.Status) || reflect.DeepEqual(a.Status, b.Status))
}

// emptyStatus: a pending pod's status as the workload reader and Pod make it, the phase only.
func emptyStatus(s corev1.PodStatus) bool {
	return len(s.Conditions) == 0 && len(s.ContainerStatuses) == 0 && len(s.InitContainerStatuses) == 0 &&
		len(s.EphemeralContainerStatuses) == 0 && s.Resize == "" && len(s.ResourceClaimStatuses) == 0 && s.Resources == nil
}

func sameContainers(a, b []corev1.Container) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !sameList(a[i].Resources.Requests, b[i].Resources.Requests) ||
			!sameList(a[i].Resources.Limits, b[i].Resources.Limits) {
			return false
		}
		if (a[i].RestartPolicy != nil || b[i].RestartPolicy != nil) && !reflect.DeepEqual(a[i].RestartPolicy, b[i].RestartPolicy) {
			return false
		}
		if (len(a[i].Resources.Claims) > 0 || len(b[i].Resources.Claims) > 0) && !reflect.DeepEqual(a[i].Resources.Claims, b[i].Resources.Claims) {
			return false
		}
	}
	return true
}

func sameList(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, q := range a {
		if r, ok := b[k]; !ok || q.Cmp(r) != 0 || q.Format != r.Format {
			return false
		}
	}
	return true
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
		if c.WhenUnsatisfiable != corev1.DoNotSchedule || !SpreadSelectsSelf(p, c) {
			continue
		}
		switch c.TopologyKey {
		case corev1.LabelTopologyZone:
			w.ZoneSpread = minSkew(w.ZoneSpread, c.MaxSkew)
		case corev1.LabelHostname:
			w.HostnameSpread = minSkew(w.HostnameSpread, c.MaxSkew)
		}
	}
	if a := p.Spec.Affinity; a != nil && a.PodAntiAffinity != nil {
		for _, term := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
			if term.TopologyKey == corev1.LabelHostname && TermSelectsSelf(p, term) {
				w.HostnameAntiAffinity = true
			}
		}
	}
	return w
}

// minSkew is the stricter of two maxSkews (0: none yet).
func minSkew(cur, v int32) int32 {
	if cur <= 0 || v < cur {
		return v
	}
	return cur
}

// SpreadSelectsSelf reports whether a topology spread constraint counts the pod itself: its
// selector (with the pod's values of its matchLabelKeys, as Karpenter adds them) matches the
// pod's labels. The workload's pods then constrain one another; a constraint that counts
// other pods only does not spread the workload.
func SpreadSelectsSelf(p *corev1.Pod, c corev1.TopologySpreadConstraint) bool {
	if c.LabelSelector == nil {
		return false
	}
	sel, err := metav1.LabelSelectorAsSelector(c.LabelSelector)
	return err == nil && sel.Matches(k8slabels.Set(p.Labels))
}

// TermSelectsSelf reports whether a pod (anti-)affinity term selects the pod itself: its
// namespaces (none: the pod's own; no namespace selector) hold the pod's and its label
// selector matches the pod's labels.
func TermSelectsSelf(p *corev1.Pod, term corev1.PodAffinityTerm) bool {
	if term.LabelSelector == nil || term.NamespaceSelector != nil {
		return false
	}
	if len(term.Namespaces) > 0 && !slices.Contains(term.Namespaces, p.Namespace) {
		return false
	}
	sel, err := metav1.LabelSelectorAsSelector(term.LabelSelector)
	return err == nil && sel.Matches(k8slabels.Set(p.Labels))
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
	sb.WriteByte(1)
	sb.WriteString(strconv.Itoa(int(w.HostnameSpread)))
	if w.HostnameAntiAffinity {
		sb.WriteString("/anti")
	}
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
