package karpenter

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// eagerDomainGroups is the previous, eager form of the domain index: every key's domains at
// once (the reference domainIndex.get must equal, key by key).
// buildDomainGroups collects each topology key's domains from every NodePool's requirements
// intersected with each of its instance types', and the values its own In requirements name.
func eagerDomainGroups(pools []*karpv1.NodePool, its map[string][]*cloudprovider.InstanceType) map[string]domainGroup {
	out := map[string]domainGroup{}
	add := func(key, domain string, taints []corev1.Taint) {
		if out[key] == nil {
			out[key] = domainGroup{}
		}
		out[key].insert(domain, taints...)
	}
	for _, np := range pools {
		taints := np.Spec.Template.Spec.Taints
		base := func() scheduling.Requirements {
			r := scheduling.NewNodeSelectorRequirementsWithMinValues(np.Spec.Template.Spec.Requirements...)
			r.Add(scheduling.NewLabelRequirements(np.Spec.Template.Labels).Values()...)
			return r
		}
		// Per instance type this is the pool's requirements added to the instance type's, as
		// upstream builds that set for each one. Shared keys intersect. The others keep their
		// own values, and for the pool's keys those are the same for every instance type.
		b := base()
		if len(its[np.Name]) > 0 {
			for key, req := range b {
				for _, d := range req.Values() {
					add(key, d, taints)
				}
			}
		}
		for key, vals := range valueUnion(its[np.Name]) {
			if b.Has(key) {
				continue
			}
			if out[key] == nil {
				out[key] = domainGroup{}
			}
			for _, d := range vals {
				add(key, d, taints)
			}
		}
		for key, breq := range b {
			for _, it := range its[np.Name] {
				if !it.Requirements.Has(key) {
					continue
				}
				// An instance type's label In one value v meets the pool's requirement in v
				// exactly when the requirement has v (cloud.Singles). So no set is built for it.
				if v, ok := cloud.SinglesFor(it).Requirements[key]; ok {
					if breq.Has(v) {
						add(key, v, taints)
					}
					continue
				}
				for _, d := range breq.Intersection(it.Requirements.Get(key)).Values() {
					add(key, d, taints)
				}
			}
		}
		for key, req := range base() {
			if req.Operator() == corev1.NodeSelectorOpIn {
				if out[key] == nil {
					out[key] = domainGroup{}
				}
				for _, d := range req.Values() {
					add(key, d, taints)
				}
			}
		}
	}
	return out
}

// domainIndex.get computes one key's domains on first use. It must give what the eager form
// gives for that key, for every key an instance type or pool has. The pools come with and
// without taints, with In, NotIn and Gt requirements and labels.
func TestDomainIndexMatchesEagerDomainGroups(t *testing.T) {
	its := westeurope()
	tainted := pool("tainted")
	tainted.Spec.Template.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "batch", Effect: corev1.TaintEffectNoSchedule}}
	tainted.Spec.Template.Spec.Requirements = append(tainted.Spec.Template.Spec.Requirements,
		karpv1.NodeSelectorRequirementWithMinValues{Key: corev1.LabelTopologyZone, Operator: corev1.NodeSelectorOpIn, Values: []string{"westeurope-1", "westeurope-2"}},
		karpv1.NodeSelectorRequirementWithMinValues{Key: "karpenter.azure.com/sku-cpu", Operator: corev1.NodeSelectorOpGt, Values: []string{"7"}})
	tainted.Spec.Template.Labels = map[string]string{"team": "a"}
	other := pool("other")
	other.Spec.Template.Spec.Requirements = append(other.Spec.Template.Spec.Requirements,
		karpv1.NodeSelectorRequirementWithMinValues{Key: corev1.LabelArchStable, Operator: corev1.NodeSelectorOpNotIn, Values: []string{karpv1.ArchitectureArm64}})
	pools := []*karpv1.NodePool{tainted, other, pool("general")}
	lists := map[string][]*cloudprovider.InstanceType{"tainted": its, "other": its[:200], "general": nil}
	want := eagerDomainGroups(pools, lists)
	got := newDomainIndex(pools, lists)
	keys := []string{"team", "no-such-key", corev1.LabelHostname}
	for k := range want {
		keys = append(keys, k)
	}
	for _, k := range keys {
		if g := got.get(k); !reflect.DeepEqual(g, want[k]) {
			t.Errorf("key %s: lazy %v, eager %v", k, g, want[k])
		}
	}
}
