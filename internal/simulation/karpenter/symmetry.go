package karpenter

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// Zones a round cannot tell apart give outcomes that differ by zone names only. Some regions
// offer their sizes alike in every zone; the catalog assumes so for every size without a
// zone listing. There a zone spread's first pods meet a tie among zones at count 0 again and
// again. Walking each choice multiplies the outcomes by permutations of zones. A prediction's
// cost range compares outcomes without their zones. Then one choice per class of
// interchangeable zones is enough, and EnumerateModuloZones walks only those.
//
// Two zones are interchangeable at a tie when swapping their names leaves the round as it is:
//   - Statically (zoneClasses). The pools' instance types have the same offerings in both:
//     capacity type, price, availability and every other label of the offering. No
//     requirement on the zone key tells them apart: not a pool's, not a DaemonSet pod's, and
//     not a pod's. For a pod that is any node selector or node-affinity term, required or
//     preferred, since relaxation may leave any of them.
//   - At the tie (interchangeable). Every topology group over zones counts both alike, or
//     neither. No in-flight NodeClaim's zone requirement tells them apart.
//
// The scheduler is then the same up to the swap on both sides of the choice. So each outcome
// of one choice is, names of zones aside, an outcome of the other.

// zoneClasses are the round's zones by static class (nil: the offerings' zones are not single
// values, and no zone is taken for interchangeable).
func (r *round) zoneClasses() map[string]int {
	r.zoneClassOnce.Do(func() { r.zoneClass = r.computeZoneClasses() })
	return r.zoneClass
}

func (r *round) computeZoneClasses() map[string]int {
	sigs := map[string][]string{}
	for _, it := range r.cache.ix.its { // every instance type of the pools' lists
		for _, o := range it.Offerings {
			zr, ok := o.Requirements[corev1.LabelTopologyZone]
			if !ok || zr.Operator() != corev1.NodeSelectorOpIn || zr.Len() != 1 {
				return nil
			}
			z := zr.Any()
			sigs[z] = append(sigs[z], fmt.Sprintf("%s|%v|%g|%s", it.Name, o.Available, o.Price, offeringLabels(o.Requirements)))
		}
	}
	zones := make([]string, 0, len(sigs))
	for z := range sigs {
		zones = append(zones, z)
	}
	slices.Sort(zones)
	mentions := r.zoneRequirements()
	classOf := map[string]int{}
	out := make(map[string]int, len(zones))
	for _, z := range zones {
		s := sigs[z]
		slices.Sort(s)
		var sb strings.Builder
		sb.WriteString(strings.Join(s, "\n"))
		sb.WriteByte(0)
		for _, req := range mentions {
			if req.Has(z) {
				sb.WriteByte('1')
			} else {
				sb.WriteByte('0')
			}
		}
		c, ok := classOf[sb.String()]
		if !ok {
			c = len(classOf)
			classOf[sb.String()] = c
		}
		out[z] = c
	}
	return out
}

// offeringLabels is the offering's requirements but its zone, in key order.
func offeringLabels(reqs scheduling.Requirements) string {
	keys := make([]string, 0, len(reqs))
	for k := range reqs {
		if k != corev1.LabelTopologyZone {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = requirementContent(reqs[k])
	}
	return strings.Join(parts, ";")
}

// zoneRequirements are the requirements on the zone key the round's pools, pods and DaemonSet
// pods have, in any node selector or node-affinity term.
func (r *round) zoneRequirements() []*scheduling.Requirement {
	var out []*scheduling.Requirement
	for _, t := range r.templates {
		if req, ok := t.requirements[corev1.LabelTopologyZone]; ok {
			out = append(out, req)
		}
	}
	add := func(p *corev1.Pod) {
		if v, ok := p.Spec.NodeSelector[corev1.LabelTopologyZone]; ok {
			out = append(out, scheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, v))
		}
		terms := func(exprs []corev1.NodeSelectorRequirement) {
			for _, e := range exprs {
				if e.Key == corev1.LabelTopologyZone {
					out = append(out, scheduling.NewRequirement(e.Key, e.Operator, e.Values...))
				}
			}
		}
		if a := p.Spec.Affinity; a != nil && a.NodeAffinity != nil {
			if req := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution; req != nil {
				for _, term := range req.NodeSelectorTerms {
					terms(term.MatchExpressions)
				}
			}
			for _, term := range a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
				terms(term.Preference.MatchExpressions)
			}
		}
	}
	for _, p := range r.pods {
		add(p)
	}
	for _, p := range r.daemons {
		add(p)
	}
	return out
}

// interchangeable reports whether zones a and b can be swapped in the round as it stands.
func (s *scheduler) interchangeable(classes map[string]int, a, b string) bool {
	ca, ok := classes[a]
	if cb, okb := classes[b]; !ok || !okb || ca != cb {
		return false
	}
	for _, list := range [][]*topologyGroup{s.topology.groups, s.topology.inverse} {
		for _, g := range list {
			if g.key != corev1.LabelTopologyZone {
				continue
			}
			na, oka := g.domains[a]
			nb, okb := g.domains[b]
			if oka != okb || na != nb {
				return false
			}
		}
	}
	for _, n := range s.newNodeClaims {
		if req, ok := n.requirements[corev1.LabelTopologyZone]; ok && req.Has(a) != req.Has(b) {
			return false
		}
	}
	return true
}

// zoneRepresentatives are the indices of the domains (zones, in name order) that are the first
// of their class of interchangeable zones.
func (s *scheduler) zoneRepresentatives(classes map[string]int, domains []string) []int {
	reps := make([]int, 0, len(domains))
	for i, d := range domains {
		if !slices.ContainsFunc(reps, func(j int) bool { return s.interchangeable(classes, domains[j], d) }) {
			reps = append(reps, i)
		}
	}
	return reps
}
