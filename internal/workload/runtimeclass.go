package workload

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
)

// runtimeClasses indexes the input's RuntimeClasses (node.k8s.io/v1) by name.
func runtimeClasses(docs []Document, s *Set) map[string]*nodev1.RuntimeClass {
	out := map[string]*nodev1.RuntimeClass{}
	for _, d := range docs {
		if d.Body["kind"] != "RuntimeClass" || d.Body["apiVersion"] != "node.k8s.io/v1" {
			continue
		}
		if !s.quantities(d, "RuntimeClass") {
			continue
		}
		rc := &nodev1.RuntimeClass{}
		if err := decode(d.Body, rc); err != nil {
			s.decodeError(d, "RuntimeClass", err)
			continue
		}
		out[rc.Name] = rc
	}
	return out
}

// admitRuntimeClass does what the API server's RuntimeClass admission plugin does to a new
// pod (plugin/pkg/admission/runtimeclass). The RuntimeClass's overhead becomes the pod's. A
// pod that sets a different one, or one without a RuntimeClass that defines it, is rejected.
// The RuntimeClass's scheduling node selector and tolerations join the pod's; a conflicting
// selector is rejected. Tolerations are appended: the plugin also drops redundant ones,
// which changes nothing a scheduler decides. A RuntimeClass that is not in the input is
// assumed to exist in the cluster; the pod is taken as written and the assumption reported.
func (s *Set) admitRuntimeClass(d Document, kind string, pod *corev1.Pod, classes map[string]*nodev1.RuntimeClass) bool {
	spec := &pod.Spec
	field := templateField(kind)
	var rc *nodev1.RuntimeClass
	if spec.RuntimeClassName != nil {
		var ok bool
		if rc, ok = classes[*spec.RuntimeClassName]; !ok {
			s.Assumptions = appendOnce(s.Assumptions, fmt.Sprintf("RuntimeClass %q is not in the input: pods using it are simulated with the overhead "+
				"and node selector they write themselves, not the RuntimeClass's", *spec.RuntimeClassName))
			return true
		}
	}
	if rc == nil || rc.Overhead == nil {
		if spec.Overhead != nil {
			s.malformed(d, kind, field+".overhead", "the pod sets overhead without a RuntimeClass that defines one: the API server rejects it",
				"Remove overhead; the RuntimeClass named in runtimeClassName sets it.")
			return false
		}
	} else {
		if len(spec.Overhead) > 0 && !apiequality.Semantic.DeepEqual(rc.Overhead.PodFixed, spec.Overhead) {
			s.malformed(d, kind, field+".overhead", fmt.Sprintf("the pod's overhead differs from RuntimeClass %s's: the API server rejects it", rc.Name),
				"Remove overhead; the RuntimeClass sets it.")
			return false
		}
		spec.Overhead = rc.Overhead.PodFixed.DeepCopy()
	}
	if rc == nil || rc.Scheduling == nil {
		return true
	}
	for k, v := range rc.Scheduling.NodeSelector {
		if pv, ok := spec.NodeSelector[k]; ok && pv != v {
			s.malformed(d, kind, field+".nodeSelector."+k, fmt.Sprintf("nodeSelector %s=%s conflicts with RuntimeClass %s's %s=%s: the API server rejects the pod", k, pv, rc.Name, k, v),
				"Drop the selector or use the RuntimeClass's value.")
			return false
		}
		if spec.NodeSelector == nil {
			spec.NodeSelector = map[string]string{}
		}
		spec.NodeSelector[k] = v
	}
	spec.Tolerations = append(spec.Tolerations, rc.Scheduling.Tolerations...)
	return true
}

func appendOnce(s []string, v string) []string {
	for _, e := range s {
		if e == v {
			return s
		}
	}
	return append(s, v)
}
