package simulation

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
)

// daemonRunsOn reports whether a DaemonSet pod would run on the pool's nodes as Karpenter
// decides it when it sizes a node (isDaemonPodCompatible in its scheduler): the pod tolerates
// the pool's taints (PreferNoSchedule ones need no toleration) and the pool's requirements are
// compatible with the pod's node selector and one of its required node affinity terms.
// Karpenter also intersects with each instance type's requirements; the overhead here is per
// pool, which matters only for DaemonSets that select instance types.
func daemonRunsOn(p *analysis.Pool, pod *corev1.Pod, wellKnown sets.Set[string]) bool {
	allow := func(o *scheduling.CompatibilityOptions) { o.AllowUndefined = wellKnown }
	d := pod.DeepCopy()
	d.Spec.Tolerations = append(d.Spec.Tolerations, corev1.Toleration{Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectPreferNoSchedule})
	if err := scheduling.Taints(p.Spec.Template.Spec.Taints).ToleratesPod(d); err != nil {
		return false
	}
	var terms []corev1.NodeSelectorTerm
	if a := d.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		terms = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	}
	if len(terms) == 0 {
		return p.Requirements.IsCompatible(scheduling.NewStrictPodRequirements(d), allow)
	}
	for _, t := range terms {
		d.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = []corev1.NodeSelectorTerm{t}
		if p.Requirements.IsCompatible(scheduling.NewStrictPodRequirements(d), allow) {
			return true
		}
	}
	return false
}
