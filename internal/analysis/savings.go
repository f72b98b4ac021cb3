package analysis

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
)

// allowsOnlyOnDemand reports whether the pool's requirements exclude spot but allow on-demand.
func allowsOnlyOnDemand(p *Pool) bool {
	if !p.Requirements.Has(karpv1.CapacityTypeLabelKey) {
		return false
	}
	ct := p.Requirements.Get(karpv1.CapacityTypeLabelKey)
	return ct.Has(karpv1.CapacityTypeOnDemand) && !ct.Has(karpv1.CapacityTypeSpot)
}

// runsSystemPods reports whether the pool is for system add-ons: a CriticalAddonsOnly taint (as
// NAP's own system-surge pool carries) or the AKS system mode label. AKS does not run system
// pools on spot ("System node pools can't be spot"), and evicting critical add-ons is no saving.
func runsSystemPods(p *Pool) bool {
	for _, t := range p.Spec.Template.Spec.Taints {
		if t.Key == "CriticalAddonsOnly" {
			return true
		}
	}
	return p.Spec.Template.ObjectMeta.Labels["kubernetes.azure.com/mode"] == "system"
}

// checkSpotSavings notes what an on-demand-only pool would cost as a spot pool
// with on-demand fallback over the same sizes: spot added to its capacity-type
// requirement, everything else unchanged. Pods are not known at plan time, so
// the note states its assumption that they may be interrupted.
func checkSpotSavings(p *Pool, a *Analysis) {
	if !allowsOnlyOnDemand(p) || p.Spec.Replicas != nil || len(a.Admissible) == 0 ||
		p.Spec.Template.ObjectMeta.Annotations[karpv1.DoNotDisruptAnnotationKey] == "true" || runsSystemPods(p) {
		return
	}
	reqs := withoutKey(p.Requirements, karpv1.CapacityTypeLabelKey)
	reqs.Add(scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot, karpv1.CapacityTypeOnDemand))
	withSpot := a.reoffered(reqs)
	c, of, ok := a.launchChoiceOf(withSpot, "")
	if !ok || of.CapacityType() != karpv1.CapacityTypeSpot || of.Price >= a.Summary.CheapestHourlyPrice {
		return
	}
	price := priceOf(c.InstanceType, of)
	msg := fmt.Sprintf("the pool allows only on-demand capacity; with spot allowed too (on-demand as the fallback), Karpenter would launch %s as spot at %s/h (%s) instead of %s at %s/h (%s), %.0f %% less",
		c.InstanceType.Name, money.Format(price.Currency, RoundPrice(of.Price), -1), price.Source, a.Summary.CheapestSKU, money.Format(a.Summary.Currency, a.Summary.CheapestHourlyPrice, -1), a.Summary.PriceSource,
		100*(1-of.Price/a.Summary.CheapestHourlyPrice))
	limits := corev1.ResourceList(p.Spec.Limits)
	if now, spot := a.Summary.MonthlyCostAtLimits, costAtLimitsOf(withSpot, limits, karpv1.CapacityTypeSpot, a.nodesAtLimits(limits)); now != nil && spot != nil {
		msg += fmt.Sprintf("; at the limits %s instead of %s a month", money.Format(a.Summary.Currency, *spot, 0), money.Format(a.Summary.Currency, *now, 0))
	}
	msg += ". This assumes the pool's pods may be interrupted: none carries karpenter.sh/do-not-disrupt, their disruption budgets allow eviction, and they tolerate any taint a spot pool would carry; " + cloud.VocabularyOf(a.cloud).SpotNotice
	a.add(findings.Finding{Code: findings.SpotSavings, Path: requirementPath(capacityTypeIndex(p), "values"), Message: msg,
		Fix: "if the workloads tolerate interruption, add \"spot\" to the karpenter.sh/capacity-type values, or add a higher-weight spot pool with this pool as its fallback"})
}

// reoffered is the admissible candidates, in order, each with the offerings of its type that
// reqs accept instead, judged as the pool's own offerings are: a type whose zones cannot be
// judged on its offerings (zonesUnjudged) against reqs without their zone requirement. A
// candidate keeps no offering when reqs accept none of its type's. The offerings are read from
// each index's view for reqs when the candidate is read.
func (a *Analysis) reoffered(reqs scheduling.Requirements) reofferedList {
	l := reofferedList{a: a, reqs: reqs}
	for _, idx := range a.indexes {
		l.views = append(l.views, indexView{idx, idx.view(idx.patternOf(reqs, zoneless(reqs)))})
	}
	return l
}

// reofferedList is reoffered's answer.
type reofferedList struct {
	a     *Analysis
	reqs  scheduling.Requirements
	views []indexView
}

type indexView struct {
	idx  *typeIndex
	view *offeringView
}

func (l reofferedList) Len() int { return len(l.a.Admissible) }

func (l reofferedList) Cut(i int, ct string) (priceCut, bool) {
	c := &l.a.Admissible[i]
	if c.idx == nil {
		return priceCut{}, false
	}
	slot, ok := slotOf(ct)
	if !ok {
		return priceCut{}, false
	}
	for _, iv := range l.views {
		if iv.idx == c.idx {
			return iv.view.cuts[slot][c.pos], true
		}
	}
	return priceCut{}, false
}

func (l reofferedList) At(i int) Candidate {
	c := l.a.Admissible[i]
	idx, pos := l.a.locate(c)
	kept := Candidate{Region: c.Region, InstanceType: c.InstanceType, idx: idx, pos: pos}
	for _, iv := range l.views {
		if iv.idx == idx {
			v := iv.view
			kept.Offerings, kept.class, kept.view = v.offs[pos], v.classes[pos], v
			return kept
		}
	}
	for _, of := range c.InstanceType.Offerings {
		if of.Available && l.reqs.IsCompatible(of.Requirements, scheduling.AllowUndefinedWellKnownLabels) {
			kept.Offerings = append(kept.Offerings, of)
		}
	}
	return kept
}

func capacityTypeIndex(p *Pool) int {
	for i, r := range p.Spec.Template.Spec.Requirements {
		if r.Key == karpv1.CapacityTypeLabelKey {
			return i
		}
	}
	return 0
}

// SpotServed reports whether another of the pools allows spot capacity for pods
// that p accepts (requirements that intersect apart from capacity type), so
// that p already is, or can be, the on-demand fallback of a spot pool.
func SpotServed(p *Pool, pools []*Pool) bool {
	for _, q := range pools {
		if q == p || q.Spec.Replicas != nil {
			continue
		}
		if q.Requirements.Has(karpv1.CapacityTypeLabelKey) && !q.Requirements.Get(karpv1.CapacityTypeLabelKey).Has(karpv1.CapacityTypeSpot) {
			continue
		}
		if without(q.Requirements).Intersects(without(p.Requirements)) == nil {
			return true
		}
	}
	return false
}
