package cloud_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// TestIntersectsAgreesWithUpstream checks the allocation-free Intersects, Compatible,
// CompatibleWellKnown and their Singles forms against Requirements.Intersects and Compatible on every pair of a set
// of requirement sets covering each operator, bounds, shared and unshared, well-known and
// custom keys.
func TestIntersectsAgreesWithUpstream(t *testing.T) {
	zone, custom, cpu := corev1.LabelTopologyZone, "example.com/team", "karpenter.azure.com/sku-cpu"
	reqs := []*scheduling.Requirement{
		scheduling.NewRequirement(zone, corev1.NodeSelectorOpIn, "a", "b"),
		scheduling.NewRequirement(zone, corev1.NodeSelectorOpIn, "c"),
		scheduling.NewRequirement(zone, corev1.NodeSelectorOpNotIn, "a"),
		scheduling.NewRequirement(zone, corev1.NodeSelectorOpNotIn, "a", "b", "c"),
		scheduling.NewRequirement(zone, corev1.NodeSelectorOpExists),
		scheduling.NewRequirement(zone, corev1.NodeSelectorOpDoesNotExist),
		scheduling.NewRequirement(custom, corev1.NodeSelectorOpIn, "x"),
		scheduling.NewRequirement(custom, corev1.NodeSelectorOpNotIn, "x"),
		scheduling.NewRequirement(custom, corev1.NodeSelectorOpDoesNotExist),
		scheduling.NewRequirement(custom, corev1.NodeSelectorOpExists),
		scheduling.NewRequirement(cpu, corev1.NodeSelectorOpGt, "4"),
		scheduling.NewRequirement(cpu, corev1.NodeSelectorOpLt, "3"),
		scheduling.NewRequirement(cpu, corev1.NodeSelectorOpIn, "2", "8"),
		scheduling.NewRequirement(cpu, corev1.NodeSelectorOpNotIn, "8"),
		scheduling.NewRequirement(cpu, corev1.NodeSelectorOpIn, "8"),
		scheduling.NewRequirement(cpu, corev1.NodeSelectorOpIn, "x"),
		scheduling.NewRequirement(zone, corev1.NodeSelectorOpIn, "b"),
	}
	// Every set of at most one requirement per key.
	var all []scheduling.Requirements
	var build func(i int, cur []*scheduling.Requirement)
	build = func(i int, cur []*scheduling.Requirement) {
		if i == len(reqs) {
			all = append(all, scheduling.NewRequirements(cur...))
			return
		}
		build(i+1, cur)
		for _, r := range cur {
			if r.Key == reqs[i].Key {
				return
			}
		}
		build(i+1, append(cur[:len(cur):len(cur)], reqs[i]))
	}
	build(0, nil)
	allowed := sets.New(custom)
	n := 0
	for _, a := range all {
		for _, b := range all {
			n++
			if got, want := cloud.Intersects(a, b), a.Intersects(b) == nil; got != want {
				t.Fatalf("Intersects(%s, %s) = %v, upstream %v", a, b, got, want)
			}
			if got, want := cloud.IntersectsSingles(a, cloud.SinglesOf(a), b), a.Intersects(b) == nil; got != want {
				t.Fatalf("IntersectsSingles(%s, %s) = %v, upstream %v", a, b, got, want)
			}
			if got, want := cloud.CompatibleWellKnownSingles(a, b, cloud.SinglesOf(b)), a.IsCompatible(b, scheduling.AllowUndefinedWellKnownLabels); got != want {
				t.Fatalf("CompatibleWellKnownSingles(%s, %s) = %v, upstream %v", a, b, got, want)
			}
			if got, want := cloud.CompatibleWellKnown(a, b), a.IsCompatible(b, scheduling.AllowUndefinedWellKnownLabels); got != want {
				t.Fatalf("CompatibleWellKnown(%s, %s) = %v, upstream %v", a, b, got, want)
			}
			if got, want := cloud.CompatibleSingles(a, b, cloud.SinglesOf(b), allowed), a.Compatible(b, func(o *scheduling.CompatibilityOptions) { o.AllowUndefined = allowed }) == nil; got != want {
				t.Fatalf("CompatibleSingles(%s, %s, %v) = %v, upstream %v", a, b, allowed, got, want)
			}
			if got, want := cloud.Compatible(a, b, allowed), a.Compatible(b, func(o *scheduling.CompatibilityOptions) { o.AllowUndefined = allowed }) == nil; got != want {
				t.Fatalf("Compatible(%s, %s, %v) = %v, upstream %v", a, b, allowed, got, want)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d pairs", n)
	}
}
