// Package solver answers offline what Karpenter on AKS could launch for a NodePool, and at
// what cost: admissible instance types per region, zone and capacity type, findings with
// stable codes, and a summary. It uses Karpenter's own requirement semantics
// (sigs.k8s.io/karpenter/pkg/scheduling) over the instance types of the cloud serving the
// pool (internal/cloud: chosen by its nodeClassRef.group; Azure's derived by internal/cloud/aks
// from the embedded catalog), and has no Terraform imports.
package solver

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

// Pool is a NodePool as the solver sees it.
type Pool struct {
	*karpv1.NodePool
	// Requirements are the NodeClaim template's requirements as Karpenter builds them: the
	// spec's requirements, the template labels, and the karpenter.sh/nodepool label.
	Requirements scheduling.Requirements
}

// PoolFromObject reads a NodePool from its Kubernetes object (as applied, defaults included).
func PoolFromObject(obj map[string]any) (*Pool, error) {
	np := &karpv1.NodePool{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, np); err != nil {
		return nil, fmt.Errorf("reading NodePool: %w", err)
	}
	return NewPool(np), nil
}

// NewPool wraps a typed NodePool.
func NewPool(np *karpv1.NodePool) *Pool {
	reqs := scheduling.NewRequirements()
	reqs.Add(scheduling.NewNodeSelectorRequirementsWithMinValues(np.Spec.Template.Spec.Requirements...).Values()...)
	labels := map[string]string{karpv1.NodePoolLabelKey: np.Name}
	for k, v := range np.Spec.Template.Labels {
		labels[k] = v
	}
	reqs.Add(scheduling.NewLabelRequirements(labels).Values()...)
	return &Pool{NodePool: np, Requirements: reqs}
}

// NodeClassName is the name in the pool's nodeClassRef ("" when there is none).
func (p *Pool) NodeClassName() string {
	if ref := p.Spec.Template.Spec.NodeClassRef; ref != nil {
		return ref.Name
	}
	return ""
}

// HasTaint reports whether pods must tolerate a NoSchedule or NoExecute taint to use the pool.
func (p *Pool) HasTaint() bool {
	for _, t := range p.Spec.Template.Spec.Taints {
		if t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute {
			return true
		}
	}
	return false
}

// NodeClassFromObject reads the instance-type-shaping settings of an AKSNodeClass object.
func NodeClassFromObject(obj map[string]any) (aks.NodeClass, error) {
	return aks.NodeClassFromObject(obj)
}
