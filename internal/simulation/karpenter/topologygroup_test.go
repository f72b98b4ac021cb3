package karpenter

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	upstream "sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling"
)

// Two constraints share a topology group exactly when upstream's TopologyGroup.Hash is the
// same for them: a nil selector (selects nothing) and an empty one (selects everything) are
// two groups upstream, and so are an invalid selector and either of them; constraints that
// differ only in minDomains are one.
func TestTopologyGroupIDMatchesUpstreamHash(t *testing.T) {
	in := func(key string, values ...string) metav1.LabelSelectorRequirement {
		return metav1.LabelSelectorRequirement{Key: key, Operator: metav1.LabelSelectorOpIn, Values: values}
	}
	selectors := map[string]*metav1.LabelSelector{
		"nil":             nil,
		"empty":           {},
		"empty labels":    {MatchLabels: map[string]string{}},
		"invalid":         {MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Bogus"}}},
		"invalid other":   {MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: "Bogus"}}},
		"labels":          {MatchLabels: map[string]string{"app": "web"}},
		"in":              {MatchExpressions: []metav1.LabelSelectorRequirement{in("app", "web")}},
		"in twice":        {MatchExpressions: []metav1.LabelSelectorRequirement{in("app", "web"), in("app", "web")}},
		"two in":          {MatchExpressions: []metav1.LabelSelectorRequirement{in("app", "web", "api"), in("tier", "a")}},
		"two in reversed": {MatchExpressions: []metav1.LabelSelectorRequirement{in("tier", "a"), in("app", "api", "web")}},
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default"}}
	ns := sets.New("default")
	type constraint struct {
		sel        *metav1.LabelSelector
		minDomains *int32
	}
	two := int32(2)
	cases := map[string]constraint{}
	for name, sel := range selectors {
		cases[name] = constraint{sel: sel}
	}
	cases["labels, minDomains 2"] = constraint{sel: selectors["labels"], minDomains: &two}
	upstreamHash := func(c constraint) uint64 {
		return upstream.NewTopologyGroup(upstream.TopologyTypeSpread, corev1.LabelTopologyZone, pod, ns, c.sel, 1, c.minDomains, nil, nil, upstream.TopologyDomainGroup{}).Hash()
	}
	id := func(c constraint) string {
		return newTopologyGroup(typeSpread, corev1.LabelTopologyZone, pod, ns, c.sel, 1, c.minDomains, nil, nil, nil).id
	}
	merged := 0
	for a, ca := range cases {
		for b, cb := range cases {
			if a >= b {
				continue
			}
			up, ours := upstreamHash(ca) == upstreamHash(cb), id(ca) == id(cb)
			if up != ours {
				t.Errorf("constraints %q and %q: upstream merges them %v, the emulation %v", a, b, up, ours)
			}
			if up {
				merged++
			}
		}
	}
	// The table holds pairs that upstream merges, so that the test judges both answers.
	if merged == 0 {
		t.Fatal("upstream merges no pair of the table")
	}
	if id(cases["nil"]) == id(cases["empty"]) {
		t.Error("a nil and an empty selector share a group")
	}
}
