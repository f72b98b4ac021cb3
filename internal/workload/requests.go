package workload

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// defaultRequests does what the API server's defaulting of a Pod does to requests (SetDefaults_Pod
// in k8s.io/kubernetes/pkg/apis/core/v1): a container's limit stands in for each request it
// does not set, for containers and init containers alike. Pod templates are not defaulted
// this way, only the pods created from them, which is why this runs on the pod.
func defaultRequests(p *corev1.Pod) {
	for _, cs := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			r := &cs[i].Resources
			if r.Limits == nil {
				continue
			}
			if r.Requests == nil {
				r.Requests = corev1.ResourceList{}
			}
			for k, v := range r.Limits {
				if _, ok := r.Requests[k]; !ok {
					r.Requests[k] = v.DeepCopy()
				}
			}
		}
	}
}

// defaultPorts does what the API server's defaulting of a Pod does to container ports, which
// Karpenter reads for host port conflicts: the protocol defaults to TCP, and with host
// networking a port's host port defaults to its container port (SetDefaults_Pod).
func defaultPorts(p *corev1.Pod) {
	for _, cs := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			for j := range cs[i].Ports {
				port := &cs[i].Ports[j]
				if port.Protocol == "" {
					port.Protocol = corev1.ProtocolTCP
				}
				if p.Spec.HostNetwork && port.HostPort == 0 {
					port.HostPort = port.ContainerPort
				}
			}
		}
	}
}

// Requests is what one pod requests as Karpenter counts it: resources.Ceiling, which is
// k8s.io/component-helpers' PodRequests as the scheduler uses it. That is the pod-level
// resources when set. Otherwise it is the larger of the containers' sum (with sidecars) and
// each init container, plus the pod overhead.
func Requests(p *corev1.Pod) corev1.ResourceList {
	return resources.Ceiling(p).Requests
}

// requestsFinding reports a pod that requests no CPU or no memory: Karpenter packs it as
// needing none of it, so the simulation (and the cluster) may put more on a node than fits.
func (s *Set) requestsFinding(d Document, w Workload) {
	r := Requests(w.Pod)
	var missing []string
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if q, ok := r[name]; !ok || q.IsZero() {
			missing = append(missing, string(name))
		}
	}
	if len(missing) == 0 {
		return
	}
	field := templateField(w.Kind) + ".containers"
	s.Findings = append(s.Findings, Finding{Finding: findings.Finding{Code: findings.PodWithoutRequests, Object: w.Label(), Path: field,
		Message: fmt.Sprintf("the pods of %s request no %s: Karpenter packs them as needing none, so nodes are sized without them",
			w.Label(), strings.Join(missing, " or ")),
		Fix: "Set resources.requests for cpu and memory on its containers, or include the namespace's LimitRange in the input if one sets defaults."},
		File: d.File, Line: d.lineOf(splitField(field))})
}

func typesUID(w Workload, i int) types.UID {
	return types.UID(fmt.Sprintf("%s/%s/%s-%d", w.Namespace, w.Kind, w.Name, i))
}
