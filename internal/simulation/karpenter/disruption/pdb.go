package disruption

import (
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/clock"
	podutils "sigs.k8s.io/karpenter/pkg/utils/pod"
)

// limits is pdb.Limits: per PDB its selector, the evictions it allows now and whether it
// blocks every eviction.
type limits []pdbItem

type pdbItem struct {
	key                         string
	namespace                   string
	selector                    labels.Selector
	disruptionsAllowed          int32
	isFullyBlocking             bool
	canAlwaysEvictUnhealthyPods bool
}

// newLimits is pdb.NewLimits with each PDB's disruptionsAllowed as kube-controller-manager's
// disruption controller computes it from the pods now: the healthy pods (bound ones: the
// simulation takes a bound pod as ready) less the desired healthy count, 0 while no pod is
// expected. A pod on a node being deleted is healthy until it is evicted: countHealthyPods
// reads the pod's deletion and readiness, not its node's. A PDB with a status
// (ObservedGeneration set) gives its expected and desired counts (workload.Set.BudgetStatus
// computes them from the pods' controllers); without one every matching pod is expected and
// the desired count follows from the spec (percentages rounded up). A PDB whose selector does not parse is left out.
func newLimits(c *Cluster) limits {
	var out limits
	for _, pdb := range c.PDBs {
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil {
			continue
		}
		expected, healthy := 0, 0
		match := func(p *corev1.Pod, bound bool) {
			if p.Namespace == pdb.Namespace && sel.Matches(labels.Set(p.Labels)) {
				expected++
				if bound {
					healthy++
				}
			}
		}
		for _, n := range c.Nodes {
			for _, p := range n.Pods {
				match(p, true)
			}
		}
		for _, p := range c.Pending {
			match(p, false)
		}
		out = append(out, pdbItem{
			key: pdb.Namespace + "/" + pdb.Name, namespace: pdb.Namespace, selector: sel,
			disruptionsAllowed: disruptionsAllowed(pdb, expected, healthy),
			isFullyBlocking: (pdb.Spec.MaxUnavailable != nil && pdb.Spec.MaxUnavailable.Type == intstr.Int && pdb.Spec.MaxUnavailable.IntVal == 0) ||
				(pdb.Spec.MaxUnavailable != nil && pdb.Spec.MaxUnavailable.Type == intstr.String && pdb.Spec.MaxUnavailable.StrVal == "0%") ||
				(pdb.Spec.MinAvailable != nil && pdb.Spec.MinAvailable.Type == intstr.String && pdb.Spec.MinAvailable.StrVal == "100%"),
			canAlwaysEvictUnhealthyPods: pdb.Spec.UnhealthyPodEvictionPolicy != nil && *pdb.Spec.UnhealthyPodEvictionPolicy == policyv1.AlwaysAllow,
		})
	}
	return out
}

// disruptionsAllowed is the disruption controller's status.disruptionsAllowed.
func disruptionsAllowed(pdb *policyv1.PodDisruptionBudget, expected, healthy int) int32 {
	if pdb.Status.ObservedGeneration > 0 {
		if pdb.Status.ExpectedPods <= 0 {
			return 0
		}
		return int32(max(healthy-int(pdb.Status.DesiredHealthy), 0))
	}
	if expected == 0 {
		return 0
	}
	desired := 0
	switch {
	case pdb.Spec.MaxUnavailable != nil:
		v, err := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, expected, true)
		if err != nil {
			return 0
		}
		desired = max(expected-v, 0)
	case pdb.Spec.MinAvailable != nil:
		v, err := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, expected, true)
		if err != nil {
			return 0
		}
		desired = v
	}
	return int32(max(healthy-desired, 0))
}

// canEvictPods is Limits.CanEvictPods: the keys of the PDBs that block one of the pods.
func (l limits) canEvictPods(pods []*corev1.Pod, clk clock.Clock) ([]string, bool) {
	for _, p := range pods {
		if keys, ok := l.isEvictable(p, clk, false); !ok {
			return keys, false
		}
	}
	return nil, true
}

// isEvictable is Limits.isEvictable: a pod matched by two PDBs is never evictable; one
// matched by a PDB that allows no disruption (fullyBlocking: one that can never allow one)
// is not.
func (l limits) isEvictable(p *corev1.Pod, clk clock.Clock, fullyBlocking bool) ([]string, bool) {
	if !podutils.IsEvictable(p, clk, nil) {
		return nil, true
	}
	var matching []pdbItem
	for _, it := range l {
		if it.namespace == p.Namespace && it.selector.Matches(labels.Set(p.Labels)) {
			matching = append(matching, it)
		}
	}
	if len(matching) > 1 {
		keys := make([]string, len(matching))
		for i, it := range matching {
			keys[i] = it.key
		}
		return keys, false
	}
	for _, it := range matching {
		if it.canAlwaysEvictUnhealthyPods {
			for _, c := range p.Status.Conditions {
				if c.Type == corev1.PodReady && c.Status == corev1.ConditionFalse {
					return nil, true
				}
			}
		}
		if (fullyBlocking && it.isFullyBlocking) || (!fullyBlocking && it.disruptionsAllowed == 0) {
			return []string{it.key}, false
		}
	}
	return nil, true
}

// isCurrentlyReschedulable is Limits.IsCurrentlyReschedulable.
func (l limits) isCurrentlyReschedulable(p *corev1.Pod, clk clock.Clock) bool {
	_, notBlocked := l.isEvictable(p, clk, true)
	return podutils.IsReschedulable(p) && podutils.IsDisruptable(p, clk, nil) && notBlocked
}
