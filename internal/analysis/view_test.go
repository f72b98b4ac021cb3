package analysis

import (
	"reflect"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// TestViewsBounded: an index keeps at most maxViews views; a pattern past the bound still gets
// the view it would have had (the same offerings, prices and order), built for its caller.
func TestViewsBounded(t *testing.T) {
	s := New(catalog.Default())
	idx := s.types("westeurope", aks.NodeClass{}).index()
	nc := len(idx.classes)
	if 1<<nc < maxViews+10 {
		t.Fatalf("westeurope has %d offering classes; the test needs 7 for %d patterns", nc, maxViews+10)
	}
	pattern := func(k int) offeringPattern {
		b := make([]byte, 2*nc)
		for c := range nc {
			b[c] = byte(k>>c) & 1
		}
		return offeringPattern(b)
	}
	for k := range maxViews + 10 {
		idx.view(pattern(k))
	}
	if len(idx.views) != maxViews {
		t.Fatalf("%d views kept, want the bound %d", len(idx.views), maxViews)
	}
	past := pattern(maxViews + 5)
	if _, kept := idx.views[past]; kept {
		t.Fatal("a pattern past the bound was kept")
	}
	if got, want := idx.view(past), buildView(idx, past); !reflect.DeepEqual(got, want) {
		t.Error("the view of a pattern past the bound differs from a fresh one")
	}
	if a, b := idx.view(pattern(3)), idx.view(pattern(3)); a != b {
		t.Error("a kept pattern's view is built again instead of shared")
	}
}
