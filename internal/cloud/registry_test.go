package cloud_test

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// named is a cloud reduced to what the registry reads; the embedded nil interface makes any
// other call panic, which the registry must never make.
type named struct {
	cloud.Cloud
	name  string
	kinds []schema.GroupKind
}

func (n named) Name() string                       { return n.name }
func (n named) NodeClassKinds() []schema.GroupKind { return n.kinds }

func TestRegistryServesByNodeClassGroup(t *testing.T) {
	azure := named{name: "Azure", kinds: []schema.GroupKind{{Group: "karpenter.azure.com", Kind: "AKSNodeClass"}}}
	other := named{name: "Other", kinds: []schema.GroupKind{{Group: "compute.example.com", Kind: "ExampleNodeClass"}}}
	r := cloud.NewRegistry(azure, other)
	if c, ok := r.ForGroup("Compute.Example.com"); !ok || c.Name() != "Other" {
		t.Errorf("ForGroup is case-insensitive: got %v %v", c, ok)
	}
	if _, ok := r.ForGroup("karpenter.k8s.aws"); ok {
		t.Error("a group no cloud owns must not be found")
	}
	// Unknown or empty group: the first registered, as every pool was Azure's before the seam.
	for _, g := range []string{"", "karpenter.k8s.aws"} {
		if c := r.Serving(g); c.Name() != "Azure" {
			t.Errorf("Serving(%q) = %s, want the default cloud", g, c.Name())
		}
	}
	if !r.Owns("karpenter.azure.com", "AKSNodeClass") || r.Owns("karpenter.azure.com", "ExampleNodeClass") {
		t.Error("Owns must match group and kind")
	}
	if c, ok := r.Named("Other"); !ok || c.Name() != "Other" {
		t.Error("Named")
	}
}

func TestRegistryRejectsTwoOwnersOfAGroup(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("two clouds claiming one node-class group must panic at registration")
		}
	}()
	g := []schema.GroupKind{{Group: "karpenter.azure.com", Kind: "AKSNodeClass"}}
	cloud.NewRegistry(named{name: "A", kinds: g}, named{name: "B", kinds: g})
}
