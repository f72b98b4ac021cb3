package clusterstate

import (
	"encoding/json"
	"maps"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
)

// lastApplied is kubectl's copy of the whole object as last applied: for a Pod it repeats the
// container environment the reader must not keep.
const lastApplied = corev1.LastAppliedConfigAnnotation

// meta keeps the identity, labels, annotations, owners, finalizers and times of an object.
func meta(m metav1.ObjectMeta) metav1.ObjectMeta {
	annotations := m.Annotations
	if _, ok := annotations[lastApplied]; ok {
		annotations = maps.Clone(annotations)
		delete(annotations, lastApplied)
	}
	return metav1.ObjectMeta{
		Name:              m.Name,
		Namespace:         m.Namespace,
		UID:               m.UID,
		Labels:            m.Labels,
		Annotations:       annotations,
		OwnerReferences:   m.OwnerReferences,
		CreationTimestamp: m.CreationTimestamp,
		DeletionTimestamp: m.DeletionTimestamp,
		Finalizers:        m.Finalizers,
	}
}

// trimPod keeps what Karpenter's scheduler and disruption read of a pod: its owners, labels
// and annotations (do-not-disrupt), requests and host ports per container, and its
// scheduling constraints.
func trimPod(object []byte) (*corev1.Pod, error) {
	var in corev1.Pod
	if err := json.Unmarshal(object, &in); err != nil {
		return nil, err
	}
	out := &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: meta(in.ObjectMeta),
		Spec: corev1.PodSpec{
			NodeName:                      in.Spec.NodeName,
			NodeSelector:                  in.Spec.NodeSelector,
			Affinity:                      in.Spec.Affinity,
			Tolerations:                   in.Spec.Tolerations,
			TopologySpreadConstraints:     in.Spec.TopologySpreadConstraints,
			PriorityClassName:             in.Spec.PriorityClassName,
			Priority:                      in.Spec.Priority,
			PreemptionPolicy:              in.Spec.PreemptionPolicy,
			SchedulerName:                 in.Spec.SchedulerName,
			RuntimeClassName:              in.Spec.RuntimeClassName,
			Overhead:                      in.Spec.Overhead,
			HostNetwork:                   in.Spec.HostNetwork,
			TerminationGracePeriodSeconds: in.Spec.TerminationGracePeriodSeconds,
			InitContainers:                containers(in.Spec.InitContainers),
			Containers:                    containers(in.Spec.Containers),
			Resources:                     in.Spec.Resources,
		},
		Status: corev1.PodStatus{
			Phase:             in.Status.Phase,
			StartTime:         in.Status.StartTime,
			NominatedNodeName: in.Status.NominatedNodeName,
			Conditions:        conditions(in.Status.Conditions),
		},
	}
	return out, nil
}

// containers keeps each container's name, requests and limits, host ports and, for init
// containers, the restart policy that makes one a sidecar.
func containers(in []corev1.Container) []corev1.Container {
	if in == nil {
		return nil
	}
	out := make([]corev1.Container, len(in))
	for i, c := range in {
		out[i] = corev1.Container{Name: c.Name, Resources: corev1.ResourceRequirements{Requests: c.Resources.Requests, Limits: c.Resources.Limits}, RestartPolicy: c.RestartPolicy}
		for _, p := range c.Ports {
			if p.HostPort != 0 {
				out[i].Ports = append(out[i].Ports, corev1.ContainerPort{HostPort: p.HostPort, ContainerPort: p.ContainerPort, Protocol: p.Protocol, HostIP: p.HostIP})
			}
		}
	}
	return out
}

// conditions keeps a pod condition's type, status and reason (PodScheduled/Unschedulable says
// a pod is pending for want of a node), not its free-text message.
func conditions(in []corev1.PodCondition) []corev1.PodCondition {
	if in == nil {
		return nil
	}
	out := make([]corev1.PodCondition, len(in))
	for i, c := range in {
		out[i] = corev1.PodCondition{Type: c.Type, Status: c.Status, Reason: c.Reason, LastTransitionTime: c.LastTransitionTime}
	}
	return out
}

// trimNode keeps a node's labels (pool, instance type, zone, capacity type), annotations,
// taints, provider ID and capacity; not its images, addresses or system information.
func trimNode(object []byte) (*corev1.Node, error) {
	var in corev1.Node
	if err := json.Unmarshal(object, &in); err != nil {
		return nil, err
	}
	out := &corev1.Node{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: meta(in.ObjectMeta),
		Spec:       corev1.NodeSpec{ProviderID: in.Spec.ProviderID, Taints: in.Spec.Taints, Unschedulable: in.Spec.Unschedulable},
		Status:     corev1.NodeStatus{Capacity: in.Status.Capacity, Allocatable: in.Status.Allocatable},
	}
	for _, c := range in.Status.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, corev1.NodeCondition{Type: c.Type, Status: c.Status, Reason: c.Reason, LastTransitionTime: c.LastTransitionTime})
	}
	return out, nil
}

// trimNodeClaim keeps the whole NodeClaim but its managed fields: its hash annotations,
// requirements, conditions (Drifted, Consolidatable) and capacity are all read.
func trimNodeClaim(object []byte) (*karpv1.NodeClaim, error) {
	var in karpv1.NodeClaim
	if err := json.Unmarshal(object, &in); err != nil {
		return nil, err
	}
	in.ObjectMeta = meta(in.ObjectMeta)
	return &in, nil
}

// trimPDB keeps the whole budget but its managed fields.
func trimPDB(object []byte) (*policyv1.PodDisruptionBudget, error) {
	var in policyv1.PodDisruptionBudget
	if err := json.Unmarshal(object, &in); err != nil {
		return nil, err
	}
	in.ObjectMeta = meta(in.ObjectMeta)
	return &in, nil
}

// trimBody keeps a NodePool's or node class's apiVersion, kind, spec, status and the metadata
// meta keeps, as the JSON-shaped body the simulation reads.
func trimBody(object []byte) (map[string]any, error) {
	var in struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Metadata   metav1.ObjectMeta `json:"metadata"`
		Spec       json.RawMessage   `json:"spec"`
		Status     json.RawMessage   `json:"status"`
	}
	if err := json.Unmarshal(object, &in); err != nil {
		return nil, err
	}
	kept, err := json.Marshal(struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Metadata   metav1.ObjectMeta `json:"metadata"`
		Spec       json.RawMessage   `json:"spec,omitempty"`
		Status     json.RawMessage   `json:"status,omitempty"`
	}{in.APIVersion, in.Kind, meta(in.Metadata), in.Spec, in.Status})
	if err != nil {
		return nil, err
	}
	v, err := manifest.DecodeJSON(kept)
	if err != nil {
		return nil, err
	}
	return v.(map[string]any), nil
}
