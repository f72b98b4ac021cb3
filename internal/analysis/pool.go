package analysis

import (
	"fmt"
	"strconv"

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
	if err := parseable(np.Spec.Template.Spec.Requirements); err != nil {
		return nil, fmt.Errorf("reading NodePool: %w", err)
	}
	return NewPool(np), nil
}

// parseable rejects the requirements Karpenter's scheduling package takes as prevalidated by
// the CRD: it reads the one value of Gt, Lt, Gte and Lte without checking (a missing one
// panics, a non-number reads as 0). An object read from manifests or a plan has not been
// validated yet; the CRD validation reports these.
func parseable(reqs []karpv1.NodeSelectorRequirementWithMinValues) error {
	for i, r := range reqs {
		switch r.Operator {
		case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn, corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
		case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt, karpv1.NodeSelectorOpGte, karpv1.NodeSelectorOpLte:
			if len(r.Values) != 1 {
				return fmt.Errorf("requirements[%d]: operator %s takes one value, not %d", i, r.Operator, len(r.Values))
			}
			if _, err := strconv.Atoi(r.Values[0]); err != nil {
				return fmt.Errorf("requirements[%d]: operator %s takes an integer, not %q", i, r.Operator, r.Values[0])
			}
		default:
			return fmt.Errorf("requirements[%d]: unknown operator %q", i, r.Operator)
		}
	}
	return nil
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
