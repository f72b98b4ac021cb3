package karpenter

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// nodeFilter is which nodes a topology spread constraint counts (nodeAffinityPolicy and
// nodeTaintsPolicy).
type nodeFilter struct {
	id             string
	requirements   []scheduling.Requirements
	taintPolicy    corev1.NodeInclusionPolicy
	affinityPolicy corev1.NodeInclusionPolicy
	tolerations    []corev1.Toleration
}

func makeNodeFilter(p *corev1.Pod, taintPolicy, affinityPolicy corev1.NodeInclusionPolicy) nodeFilter {
	selector := scheduling.NewLabelRequirements(p.Spec.NodeSelector)
	f := nodeFilter{taintPolicy: taintPolicy, affinityPolicy: affinityPolicy, tolerations: p.Spec.Tolerations}
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		f.requirements = []scheduling.Requirements{selector}
	} else {
		for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
			r := scheduling.NewRequirements(selector.Values()...)
			r.Add(scheduling.NewNodeSelectorRequirements(term.MatchExpressions...).Values()...)
			f.requirements = append(f.requirements, r)
		}
	}
	parts := []string{string(taintPolicy), string(affinityPolicy), fmt.Sprint(p.Spec.Tolerations)}
	for _, r := range f.requirements {
		parts = append(parts, r.String())
	}
	f.id = strings.Join(parts, "|")
	return f
}

func (f nodeFilter) matches(taints []corev1.Taint, reqs scheduling.Requirements) bool {
	if f.affinityPolicy == corev1.NodeInclusionPolicyHonor && len(f.requirements) > 0 {
		ok := false
		for _, r := range f.requirements {
			if reqs.Compatible(r) == nil {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	if f.taintPolicy == corev1.NodeInclusionPolicyHonor && scheduling.Taints(taints).Tolerates(f.tolerations) != nil {
		return false
	}
	return true
}
