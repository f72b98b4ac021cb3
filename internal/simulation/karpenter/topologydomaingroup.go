package karpenter

import (
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// domainGroup lists, per domain of a topology key, the taint sets of the NodePools offering
// it. A taint-free pool offering it adds one empty set.
type domainGroup map[string][][]corev1.Taint

func (g domainGroup) insert(domain string, taints ...corev1.Taint) {
	sets, ok := g[domain]
	if ok && len(taints) == 0 && len(sets) == 1 && len(sets[0]) == 0 {
		return // already offered by a taint-free pool: the same one empty set
	}
	if !ok || len(taints) == 0 {
		g[domain] = [][]corev1.Taint{taints}
		return
	}
	if len(g[domain][0]) == 0 {
		return
	}
	g[domain] = append(g[domain], taints)
}

func (g domainGroup) forEach(p *corev1.Pod, policy corev1.NodeInclusionPolicy, f func(string)) {
	for domain, taintSets := range g {
		if policy == corev1.NodeInclusionPolicyIgnore {
			f(domain)
			continue
		}
		for _, ts := range taintSets {
			if scheduling.Taints(ts).ToleratesPod(p) == nil {
				f(domain)
				break
			}
		}
	}
}
