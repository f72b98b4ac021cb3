package workload

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// workload reads the pod template and the replica count of a decoded object.
func (s *Set) workload(d Document, obj any, scalers map[scaleKey]scaler, classes map[string]*nodev1.RuntimeClass,
	ranges map[string][]corev1.LimitRange, opts Options) (Workload, bool) {
	var (
		meta     metav1.ObjectMeta
		tmpl     corev1.PodTemplateSpec
		replicas *int32
		kind     string
		from     = "spec.replicas"
	)
	switch o := obj.(type) {
	case *appsv1.Deployment:
		kind, meta, tmpl, replicas = "Deployment", o.ObjectMeta, o.Spec.Template, o.Spec.Replicas
	case *appsv1.ReplicaSet:
		kind, meta, tmpl, replicas = "ReplicaSet", o.ObjectMeta, o.Spec.Template, o.Spec.Replicas
	case *appsv1.StatefulSet:
		kind, meta, tmpl, replicas = "StatefulSet", o.ObjectMeta, o.Spec.Template, o.Spec.Replicas
	case *corev1.ReplicationController:
		kind, meta, replicas = "ReplicationController", o.ObjectMeta, o.Spec.Replicas
		if o.Spec.Template == nil {
			s.malformed(d, kind, "spec.template", "spec.template is required", "Add the pod template.")
			return Workload{}, false
		}
		tmpl = *o.Spec.Template
	case *appsv1.DaemonSet:
		kind, meta, tmpl = "DaemonSet", o.ObjectMeta, o.Spec.Template
		zero := int32(0)
		replicas, from = &zero, "one per node"
	case *batchv1.Job:
		kind, meta, tmpl = "Job", o.ObjectMeta, o.Spec.Template
		n, f := jobPods(o.Spec, "spec")
		replicas, from = &n, f
	case *batchv1.CronJob:
		kind, meta, tmpl = "CronJob", o.ObjectMeta, o.Spec.JobTemplate.Spec.Template
		n, f := jobPods(o.Spec.JobTemplate.Spec, "spec.jobTemplate.spec")
		if o.Spec.Suspend != nil && *o.Spec.Suspend {
			n, f = 0, "spec.suspend"
		}
		replicas, from = &n, "one run: "+f
	case *corev1.Pod:
		kind, meta = "Pod", o.ObjectMeta
		tmpl = corev1.PodTemplateSpec{ObjectMeta: o.ObjectMeta, Spec: o.Spec}
		one := int32(1)
		replicas, from = &one, "a Pod"
		if o.Spec.NodeName != "" {
			s.note(d, kind, fmt.Sprintf("Pod/%s names spec.nodeName %s: it is bound to that node and not provisioned for", o.Name, o.Spec.NodeName),
				"Remove spec.nodeName to simulate the pod.")
			return Workload{}, false
		}
	}
	if meta.Name == "" && meta.GenerateName == "" {
		s.malformed(d, kind, "metadata.name", kind+" has no metadata.name", "Name the object.")
		return Workload{}, false
	}
	if meta.Name == "" {
		meta.Name = meta.GenerateName
	}
	if len(tmpl.Spec.Containers) == 0 {
		s.malformed(d, kind, templateField(kind)+".containers", kind+"/"+meta.Name+" has no containers (the API server requires at least one)",
			"Add the pod's containers.")
		return Workload{}, false
	}
	if len(tmpl.Spec.SchedulingGates) > 0 {
		s.note(d, kind, fmt.Sprintf("%s/%s has scheduling gates (%s): its pods wait for them to be removed, and Karpenter provisions no node for a gated pod",
			kind, meta.Name, tmpl.Spec.SchedulingGates[0].Name), "Remove spec.schedulingGates to simulate the pods as they are once released.")
		return Workload{}, false
	}
	n := 1
	if replicas != nil {
		n = int(*replicas)
	} else {
		from = "default 1"
	}
	if n < 0 {
		s.malformed(d, kind, "spec.replicas", fmt.Sprintf("%s is negative (%d)", from, n), "Set a count of 0 or more.")
		return Workload{}, false
	}
	ns := meta.Namespace
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	minReplicas := 0
	if sc, ok := scalers[scaleKey{ns, kind, meta.Name}]; ok && kind != "DaemonSet" {
		minReplicas = int(sc.min)
		if opts.HPAMaxReplicas {
			n, from = int(sc.max), sc.label+" maxReplicas"
		}
	}
	pod := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: meta.Name, Namespace: ns, Labels: tmpl.Labels, Annotations: tmpl.Annotations},
		Spec:       *tmpl.Spec.DeepCopy(),
		Status:     corev1.PodStatus{Phase: corev1.PodPending},
	}
	if !s.admitRuntimeClass(d, kind, pod, classes) {
		return Workload{}, false
	}
	defaultRequests(pod)
	defaultPorts(pod)
	applyLimitRanges(pod, ranges[ns])
	return Workload{Kind: kind, Namespace: ns, Name: meta.Name, File: d.File, Line: d.Line, Replicas: n, ReplicasFrom: from, HPAMinReplicas: minReplicas, Pod: pod, doc: d}, true
}

// jobPods is how many pods a Job runs at once: parallelism (default 1), no more than its
// completions when set, none while suspended (the Job controller's rule).
func jobPods(spec batchv1.JobSpec, at string) (int32, string) {
	n, from := int32(1), "default parallelism 1"
	if spec.Parallelism != nil {
		n, from = *spec.Parallelism, at+".parallelism"
	}
	if spec.Completions != nil && *spec.Completions < n {
		n, from = *spec.Completions, at+".completions"
	}
	if spec.Suspend != nil && *spec.Suspend {
		n, from = 0, at+".suspend"
	}
	return n, from
}

func templateField(kind string) string {
	switch kind {
	case "Pod":
		return "spec"
	case "CronJob":
		return "spec.jobTemplate.spec.template.spec"
	}
	return "spec.template.spec"
}

// OwnerAnnotation on a pod the reader made names its workload (Deployment/web), for reports.
const OwnerAnnotation = "simulate.karpenter-iac.io/workload"

// replica is the i-th pod of a workload, named as its controller would name it closely
// enough to be unique: StatefulSets web-0, web-1; others web-<i>.
func replica(w Workload, i int) *corev1.Pod {
	p := w.Pod.DeepCopy()
	if w.Kind != "Pod" {
		p.Name = fmt.Sprintf("%s-%d", w.Name, i)
	}
	p.UID = typesUID(w, i)
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations[OwnerAnnotation] = w.Label()
	return p
}
