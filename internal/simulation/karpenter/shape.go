package karpenter

import (
	"encoding/binary"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// podShape is what the scheduler derives from a pod's namespace, labels, spec and status. It
// holds the pod's requests, node requirements and host ports. Per run, topology.shapeGroups
// holds the topology groups its constraints make. Pods of one workload differ in name, UID
// and creation time only, so they share one shape. So these are computed once per shape,
// where Karpenter computes them per pod.
type podShape struct {
	// id indexes the shape in its table. Ids are dense, since per-shape state is kept in
	// slices.
	id                 int
	requests           corev1.ResourceList
	requirements       scheduling.Requirements
	strictRequirements scheduling.Requirements
	requestsV          vec
	requestsOK         bool
	hostPorts          bool
}

// shapeTable interns pod shapes by the bytes of what the scheduler may read of a pod. Those
// are its namespace, its labels and its spec, as deterministic protobuf with sorted map keys.
// The spec leaves out the hostname and subdomain a StatefulSet gives each pod. The status
// is included when it has container statuses, which carry resized requests. Two pods with
// equal bytes get equal answers from every function the emulation calls on a pod. Pods that
// differ anywhere else get their own shape, which costs time, never a wrong answer. A
// shape's requests and requirements are shared by its pods and never modified.
type shapeTable struct {
	byKey  map[string]*podShape
	shapes []*podShape
	// known holds the shapes of the round's pods, computed once. Relaxed copies are looked up
	// by their bytes.
	known      map[*corev1.Pod]*podShape
	buf        []byte
	containers []corev1.Container
	qbuf       []byte
	spec       corev1.PodSpec
}

func newShapeTable(pods []*corev1.Pod) *shapeTable {
	t := &shapeTable{byKey: map[string]*podShape{}, known: make(map[*corev1.Pod]*podShape, len(pods)), qbuf: make([]byte, 0, 32)}
	for _, p := range pods {
		t.known[p] = t.of(p)
	}
	return t
}

// forPod is the pod's shape.
func (t *shapeTable) forPod(p *corev1.Pod) *podShape {
	if sh, ok := t.known[p]; ok {
		return sh
	}
	return t.of(p)
}

func (t *shapeTable) of(p *corev1.Pod) *podShape {
	key := t.key(p)
	if sh, ok := t.byKey[string(key)]; ok {
		return sh
	}
	reqs := scheduling.NewPodRequirements(p)
	strict := reqs
	if scheduling.HasPreferredNodeAffinity(p) {
		// Only required node affinity narrows a pod's topology domains.
		strict = scheduling.NewStrictPodRequirements(p)
	}
	sh := &podShape{id: len(t.shapes), requests: podRequests(p), requirements: reqs, strictRequirements: strict}
	sh.requestsV, sh.requestsOK = toVec(sh.requests)
	sh.hostPorts = len(scheduling.GetHostPorts(p)) > 0
	t.byKey[string(key)] = sh
	t.shapes = append(t.shapes, sh)
	return sh
}

// key is the shape's bytes, in t.buf (valid until the next call).
func (t *shapeTable) key(p *corev1.Pod) []byte {
	b := append(t.buf[:0], p.Namespace...)
	b = append(b, 0)
	if len(p.Labels) > 0 {
		var small [8]string
		keys := small[:0]
		for k := range p.Labels {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b = append(b, k...)
			b = append(b, 1)
			b = append(b, p.Labels[k]...)
			b = append(b, 2)
		}
	}
	b = append(b, 0)
	// Containers are marshalled without their resources, which are appended in canonical
	// form. That is what a Quantity marshals as, without the strings its marshalling allocates.
	spec := &t.spec // a scratch copy: a local one would escape to the heap per pod
	*spec = p.Spec
	spec.Hostname, spec.Subdomain = "", ""
	t.containers = append(t.containers[:0], p.Spec.Containers...)
	t.containers = append(t.containers, p.Spec.InitContainers...)
	for i := range t.containers {
		t.containers[i].Resources.Requests, t.containers[i].Resources.Limits = nil, nil
	}
	spec.Containers, spec.InitContainers = t.containers[:len(p.Spec.Containers)], t.containers[len(p.Spec.Containers):]
	b = appendMarshal(b, spec)
	*spec = corev1.PodSpec{}
	for _, cs := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			b = t.appendResources(b, cs[i].Resources.Requests)
			b = t.appendResources(b, cs[i].Resources.Limits)
		}
		b = append(b, 3)
	}
	if len(p.Status.ContainerStatuses) > 0 || len(p.Status.InitContainerStatuses) > 0 || p.Status.Resources != nil {
		b = append(b, 0)
		b = appendMarshal(b, &p.Status)
	}
	t.buf = b
	return b
}

// appendResources appends a resource list, names sorted, each quantity as its format and
// value. A quantity's string is its canonical form, which depends on nothing else. A parsed
// quantity keeps its own string only when that is canonical. A value that is a whole number
// of milli-units is appended as that number, any other in canonical form.
func (t *shapeTable) appendResources(b []byte, l corev1.ResourceList) []byte {
	if len(l) == 0 {
		return append(b, 4)
	}
	var small [8]corev1.ResourceName
	names := small[:0]
	// The usual names are looked up in sorted order rather than ranged over. Starting a map
	// iteration costs more than a few lookups.
	for _, n := range commonResources {
		if _, ok := l[n]; ok {
			names = append(names, n)
		}
	}
	if len(names) != len(l) {
		names = names[:0]
		for n := range l {
			names = append(names, n)
		}
		slices.Sort(names)
	}
	for _, n := range names {
		q := l[n]
		b = append(b, n...)
		b = append(b, 1)
		b = append(b, q.Format...)
		b = append(b, 1)
		if m := q.MilliValue(); q.Cmp(*resource.NewMilliQuantity(m, q.Format)) == 0 {
			b = binary.AppendVarint(append(b, 'm'), m)
		} else {
			num, suffix := q.CanonicalizeBytes(t.qbuf[:0])
			t.qbuf = num[:0]
			b = append(b, 'c')
			b = append(b, num...)
			b = append(b, suffix...)
		}
		b = append(b, 2)
	}
	return append(b, 4)
}

// commonResources are the resource names most requests have, sorted.
var commonResources = []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceEphemeralStorage, corev1.ResourceMemory, "nvidia.com/gpu"}

type sizedMarshaler interface {
	Size() int
	MarshalToSizedBuffer([]byte) (int, error)
}

func appendMarshal(b []byte, m sizedMarshaler) []byte {
	n := m.Size()
	b = slices.Grow(b, n)
	out := b[len(b) : len(b)+n]
	if _, err := m.MarshalToSizedBuffer(out); err != nil {
		// Not expected for a valid object; a unique key then keeps the pod to itself.
		return fmt.Appendf(b, "%p", m)
	}
	return b[:len(b)+n]
}
