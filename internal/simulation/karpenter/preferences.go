package karpenter

import (
	"sort"

	corev1 "k8s.io/api/core/v1"
)

// preferences relaxes a pod that failed to schedule, one soft constraint at a time, in
// Karpenter's order:
//
//   - the first of several required node-affinity terms, which are ORed;
//   - the heaviest preferred pod-affinity, pod-anti-affinity and node-affinity terms;
//   - a ScheduleAnyway topology spread;
//   - when some NodePool has a PreferNoSchedule taint, a toleration of PreferNoSchedule taints.
type preferences struct {
	toleratePreferNoSchedule bool
}

func (pr *preferences) relax(p *corev1.Pod) bool {
	steps := []func(*corev1.Pod) bool{
		removeRequiredNodeAffinityTerm,
		removePreferredPodAffinityTerm,
		removePreferredPodAntiAffinityTerm,
		removePreferredNodeAffinityTerm,
		removeTopologySpreadScheduleAnyway,
	}
	if pr.toleratePreferNoSchedule {
		steps = append(steps, pr.toleratePreferNoScheduleTaints)
	}
	for _, step := range steps {
		if step(p) {
			return true
		}
	}
	return false
}

func removeRequiredNodeAffinityTerm(p *corev1.Pod) bool {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return false
	}
	terms := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if len(terms) > 1 {
		a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms = terms[1:]
		return true
	}
	return false
}

func removePreferredNodeAffinityTerm(p *corev1.Pod) bool {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || len(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) == 0 {
		return false
	}
	terms := a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	sort.SliceStable(terms, func(i, j int) bool { return terms[i].Weight > terms[j].Weight })
	a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution = terms[1:]
	return true
}

func removePreferredPodAffinityTerm(p *corev1.Pod) bool {
	a := p.Spec.Affinity
	if a == nil || a.PodAffinity == nil || len(a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution) == 0 {
		return false
	}
	terms := a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	sort.SliceStable(terms, func(i, j int) bool { return terms[i].Weight > terms[j].Weight })
	a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution = terms[1:]
	return true
}

func removePreferredPodAntiAffinityTerm(p *corev1.Pod) bool {
	a := p.Spec.Affinity
	if a == nil || a.PodAntiAffinity == nil || len(a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution) == 0 {
		return false
	}
	terms := a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	sort.SliceStable(terms, func(i, j int) bool { return terms[i].Weight > terms[j].Weight })
	a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution = terms[1:]
	return true
}

// removeTopologySpreadScheduleAnyway drops the first ScheduleAnyway constraint, moving the
// last constraint into its place as upstream does.
func removeTopologySpreadScheduleAnyway(p *corev1.Pod) bool {
	tscs := p.Spec.TopologySpreadConstraints
	for i, c := range tscs {
		if c.WhenUnsatisfiable == corev1.ScheduleAnyway {
			tscs[i] = tscs[len(tscs)-1]
			p.Spec.TopologySpreadConstraints = tscs[:len(tscs)-1]
			return true
		}
	}
	return false
}

func (pr *preferences) toleratePreferNoScheduleTaints(p *corev1.Pod) bool {
	tol := corev1.Toleration{Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectPreferNoSchedule}
	for _, t := range p.Spec.Tolerations {
		if t.MatchToleration(&tol) {
			return false
		}
	}
	p.Spec.Tolerations = append(p.Spec.Tolerations, tol)
	return true
}
