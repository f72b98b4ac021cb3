package planstate

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/fakecloud"
)

// A pool referencing another cloud's node-class kind keeps that cloud's node class: the
// snapshot holds it, its private state decodes back to it, and an AKSNodeClass planned under
// the same name is not taken for it. (Before, the board held aks.NodeClass only, and a kind
// other than AKSNodeClass was "not a node class": defaults assumed.)
func TestObservedHoldsTheNodeClassOfTheRefsCloud(t *testing.T) {
	ex := Ref{Kind: fakecloud.Kind, Name: "nc", Cloud: fakecloud.Cloud{}}
	b := New()
	b.NodeClasses().Planned("nc", aks.NodeClass{ImageFamily: "AzureLinux"}, false, true)
	live := func() (NodeClassSettings, bool, error) { return fakecloud.NodeClass{Spot: true}, true, nil }
	o := b.NodePools().Observe(ex, live)
	if !o.Found || o.Settings != NodeClassSettings(fakecloud.NodeClass{Spot: true}) {
		t.Fatalf("observed %+v, want the live ExampleNodeClass (the planned AKSNodeClass nc is another object)", o)
	}
	if d := b.NodePools().ForDiagnostics(ex, NodeClassView{}); d.State == ViewPlanned {
		t.Errorf("diagnostics took the AKSNodeClass planned as nc: %+v", d)
	}
	v := ForAnalysis(ex, o.Encode(), false)
	if v.State != ViewObserved || v.Assumed || v.Settings != NodeClassSettings(fakecloud.NodeClass{Spot: true}) || v.Label != fakecloud.Kind+" nc" {
		t.Errorf("ForAnalysis = %+v", v)
	}
	if d, ok := DecodeObserved(o.Encode(), nil); !ok || !d.Found || d.Settings != nil {
		t.Errorf("decoded without a cloud: %+v, %v", d, ok)
	}
	missing := b.NodePools().Observe(Ref{Kind: fakecloud.Kind, Name: "gone", Cloud: fakecloud.Cloud{}},
		func() (NodeClassSettings, bool, error) { return nil, false, nil })
	if v := ForAnalysis(Ref{Kind: fakecloud.Kind, Name: "gone", Cloud: fakecloud.Cloud{}}, missing.Encode(), false); !v.Assumed ||
		v.Settings != NodeClassSettings(fakecloud.NodeClass{}) || v.Label != "defaults assumed (ExampleNodeClass gone does not exist)" {
		t.Errorf("missing: %+v", v)
	}
}
