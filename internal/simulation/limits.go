package simulation

import (
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// The largest cluster a simulation takes by default: Kubernetes' documented large-cluster limits
// ("No more than 150,000 total pods", "No more than 5,000 nodes",
// https://kubernetes.io/docs/setup/best-practices/cluster-large/), which AKS's own node limit
// matches ("Maximum nodes per cluster with Virtual Machine Scale Sets and Standard Load
// Balancer SKU: 5,000 across all node pools", https://learn.microsoft.com/azure/aks/quotas-skus-regions).
// Past them an input is almost always a typo (replicas: 1000000), whose simulation would take
// minutes and gigabytes.
const (
	MaxPods  = workload.DefaultMaxPods
	MaxNodes = 5000
)

// SizeError is an input past the caps (Input.MaxPods, Input.MaxNodes), found before any
// simulation work.
type SizeError struct {
	Pods, MaxPods int
	// Nodes is a lower bound on the nodes any packing needs (nodesAtLeast), 0 when the pods
	// were past their cap already.
	Nodes, MaxNodes int
}

func (e *SizeError) Error() string {
	if e.Nodes > 0 {
		return fmt.Sprintf("the %d pods need at least %d nodes (their requests over the largest size the pools admit), past the cap of %d nodes per cluster "+
			"(Kubernetes and AKS: 5,000); raise it with --max-nodes (max_nodes) if that is meant", e.Pods, e.Nodes, e.MaxNodes)
	}
	return fmt.Sprintf("%d pods, past the cap of %d per cluster (Kubernetes: 150,000); raise it with --max-pods (max_pods) if that is meant", e.Pods, e.MaxPods)
}

// checkSize stops an input past the caps before the work: its pods, then a lower bound on its
// nodes.
func checkSize(s *analysis.Analyzer, in Input, pools []simmodel.SimPool) error {
	in.Region = strings.ToLower(in.Region)
	if !s.HasRegion(in.Region) {
		return nil // the simulation says so
	}
	maxPods, maxNodes := in.MaxPods, in.MaxNodes
	if maxPods <= 0 {
		maxPods = MaxPods
	}
	if maxNodes <= 0 {
		maxNodes = MaxNodes
	}
	if len(in.Pods) > maxPods {
		return &SizeError{Pods: len(in.Pods), MaxPods: maxPods, MaxNodes: maxNodes}
	}
	if n := nodesAtLeast(s, in, pools); n > maxNodes {
		return &SizeError{Pods: len(in.Pods), MaxPods: maxPods, Nodes: n, MaxNodes: maxNodes}
	}
	return nil
}

// nodesAtLeast is a lower bound on the nodes any packing of the pods needs: per resource (cpu,
// memory, pod slots), their total request over the largest allocatable of any size the pools'
// clouds offer in the region. One pass over the pods and the sizes.
func nodesAtLeast(s *analysis.Analyzer, in Input, pools []simmodel.SimPool) int {
	largest := corev1.ResourceList{}
	for _, p := range pools {
		for _, it := range s.RegionTypes(in.Region, p.ResolvedNodeClass(s.Clouds())).InstanceTypes() {
			for k, v := range it.Allocatable() {
				if cur, ok := largest[k]; !ok || v.Cmp(cur) > 0 {
					largest[k] = v
				}
			}
		}
	}
	total := map[corev1.ResourceName]int64{corev1.ResourcePods: int64(len(in.Pods))}
	var r corev1.ResourceList
	for i, p := range in.Pods {
		// A workload's replicas come one after another with one template: its requests are
		// counted once.
		if i == 0 || WorkloadOf(p) != WorkloadOf(in.Pods[i-1]) {
			r = workload.Requests(p)
		}
		total[corev1.ResourceCPU] += r.Cpu().MilliValue()
		total[corev1.ResourceMemory] += r.Memory().Value()
	}
	n := 0
	for k, v := range total {
		a, ok := largest[k]
		if !ok {
			continue
		}
		per := a.Value()
		if k == corev1.ResourceCPU {
			per = a.MilliValue()
		}
		if per > 0 {
			n = max(n, int((v+per-1)/per))
		}
	}
	return n
}

// SizeFinding is KRP306 for a simulation stopped by a *SizeError, at the workload with the most
// replicas (DaemonSets aside); ok is false for any other error or when no workload is.
func SizeFinding(set *workload.Set, err error) (workload.Finding, bool) {
	var se *SizeError
	if !errors.As(err, &se) || set == nil {
		return workload.Finding{}, false
	}
	var w *workload.Workload
	for i := range set.Workloads {
		if c := &set.Workloads[i]; c.Kind != "DaemonSet" && (w == nil || c.Replicas > w.Replicas) {
			w = c
		}
	}
	if w == nil {
		return workload.Finding{}, false
	}
	field := w.ReplicasField()
	return workload.Finding{Finding: findings.Finding{Code: findings.PodsPastClusterLimits, Object: w.Label(), Path: field,
		Message: fmt.Sprintf("nothing was simulated: %s; the largest workload is %s with %d pods (%s)", se.Error(), w.Label(), w.Replicas, w.ReplicasFrom),
		Fix:     fmt.Sprintf("Check %s of %s for a typo, or raise the cap if the size is meant.", w.ReplicasFrom, w.Label())},
		File: w.File, Line: w.FieldLine(field)}, true
}
