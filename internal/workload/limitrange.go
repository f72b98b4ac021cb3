package workload

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// limitRanges indexes the input's LimitRanges by namespace, in input order, each with the
// defaults the API server gives a LimitRange item of type Container (SetDefaults_LimitRangeItem:
// default from max, defaultRequest from default, else from min).
func limitRanges(docs []Document, s *Set) map[string][]corev1.LimitRange {
	out := map[string][]corev1.LimitRange{}
	for _, d := range docs {
		if d.Body["kind"] != "LimitRange" || d.Body["apiVersion"] != "v1" {
			continue
		}
		lr := corev1.LimitRange{}
		if err := decode(d.Body, &lr); err != nil {
			s.decodeError(d, "LimitRange", err)
			continue
		}
		for i := range lr.Spec.Limits {
			defaultLimitRangeItem(&lr.Spec.Limits[i])
		}
		ns := lr.Namespace
		if ns == "" {
			ns = metav1.NamespaceDefault
		}
		out[ns] = append(out[ns], lr)
	}
	return out
}

func defaultLimitRangeItem(it *corev1.LimitRangeItem) {
	if it.Type != corev1.LimitTypeContainer {
		return
	}
	if it.Default == nil {
		it.Default = corev1.ResourceList{}
	}
	if it.DefaultRequest == nil {
		it.DefaultRequest = corev1.ResourceList{}
	}
	for k, v := range it.Max {
		if _, ok := it.Default[k]; !ok {
			it.Default[k] = v.DeepCopy()
		}
	}
	for k, v := range it.Default {
		if _, ok := it.DefaultRequest[k]; !ok {
			it.DefaultRequest[k] = v.DeepCopy()
		}
	}
	for k, v := range it.Min {
		if _, ok := it.DefaultRequest[k]; !ok {
			it.DefaultRequest[k] = v.DeepCopy()
		}
	}
}

// applyLimitRanges does what the API server's LimitRanger admission does to a new pod
// (plugin/pkg/admission/limitranger, after the pod's own defaulting): each container and init
// container gets the namespace's default limits and default requests for the resources it
// does not set. Several LimitRanges apply one after another, the first to set a resource
// winning; the API server takes them in its cache's order, here the input's. Its min/max
// validation is not reproduced.
func applyLimitRanges(p *corev1.Pod, ranges []corev1.LimitRange) {
	for _, lr := range ranges {
		req, lim := corev1.ResourceList{}, corev1.ResourceList{}
		for _, it := range lr.Spec.Limits {
			if it.Type != corev1.LimitTypeContainer {
				continue
			}
			for k, v := range it.DefaultRequest {
				req[k] = v.DeepCopy()
			}
			for k, v := range it.Default {
				lim[k] = v.DeepCopy()
			}
		}
		for _, cs := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
			for i := range cs {
				r := &cs[i].Resources
				if r.Limits == nil {
					r.Limits = corev1.ResourceList{}
				}
				if r.Requests == nil {
					r.Requests = corev1.ResourceList{}
				}
				for k, v := range lim {
					if _, ok := r.Limits[k]; !ok {
						r.Limits[k] = v.DeepCopy()
					}
				}
				for k, v := range req {
					if _, ok := r.Requests[k]; !ok {
						r.Requests[k] = v.DeepCopy()
					}
				}
			}
		}
	}
}
