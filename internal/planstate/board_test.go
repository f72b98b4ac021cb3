package planstate

import (
	"errors"
	"slices"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

// Each read says what it found: a reader planned before the writer sees "not planned", not an
// empty or zero value it could mistake for the configuration.
func TestStatesAreExplicit(t *testing.T) {
	b := New()
	if g := b.NodeClasses().Grants(); g.State != GrantsNotPlanned || g.Known() {
		t.Errorf("grants before any NAP plan = %+v, want GrantsNotPlanned", g)
	}
	if c := b.NodePools().NodeClass("x"); c.State != NodeClassNotPlanned || c.Exists() {
		t.Errorf("node class before its plan = %+v, want NodeClassNotPlanned", c)
	}

	b.NAP().PlanGrants([]string{"/subscriptions/s"}, true)
	if g := b.NodeClasses().Grants(); g.State != GrantsPlanned || !slices.Equal(g.Scopes, []string{"/subscriptions/s"}) {
		t.Errorf("grants after one known NAP plan = %+v", g)
	}
	// A second NAP resource whose scopes are known only after apply makes the whole unknown.
	b.NAP().PlanGrants(nil, false)
	b.NAP().PlanGrants([]string{"/subscriptions/t"}, true)
	if g := b.NodeClasses().Grants(); g.State != GrantsUnknown || g.Known() {
		t.Errorf("grants with one unknown = %+v, want GrantsUnknown", g)
	}

	nc := aks.NodeClass{ImageFamily: "AzureLinux"}
	b.NodeClasses().Planned("x", nc, true, true)
	b.NodeClasses().Planned("y", nc, false, false)
	b.NodeClasses().Deleted("z")
	for name, want := range map[string]NodeClassState{"x": NodeClassPlanned, "y": NodeClassPending, "z": NodeClassDeleted} {
		if got := b.NodePools().NodeClass(name).State; got != want {
			t.Errorf("NodeClass(%q).State = %v, want %v", name, got, want)
		}
	}
	if b.NodePools().NodeClass("z").Exists() || !b.NodePools().NodeClass("y").Exists() {
		t.Error("a deleted class must not exist, a pending one must")
	}
}

// What a pool observed decodes from the private state an earlier provider version wrote
// (the JSON of nodepool's nodeClassSnapshot), so that an upgrade plans no analysis change.
func TestObservedReadsEarlierPrivateState(t *testing.T) {
	old := []byte(`{"name":"nc","kind":"AKSNodeClass","found":true,"settings":{"ImageFamily":"AzureLinux","OSDiskSizeGB":64,"MaxPods":0,"FIPSMode":"","GPUMode":"","EncryptionAtHost":true,"ArtifactStreaming":false,"LocalDNS":false,"VTPM":false,"SecureBoot":false}}`)
	o, ok := DecodeObserved(old, azure)
	if !ok || !o.Found || o.Settings != (aks.NodeClass{ImageFamily: "AzureLinux", OSDiskSizeGB: 64, EncryptionAtHost: true}) {
		t.Fatalf("DecodeObserved = %+v, %v", o, ok)
	}
	if got := string(o.Encode()); got != string(old) {
		t.Errorf("Encode changed the private state:\n got %s\nwant %s", got, old)
	}
}

// The analysis uses only the pool's observation, whatever the walk planned; the diagnostics
// prefer the walk's plan.
func TestAnalysisAndDiagnosticsSources(t *testing.T) {
	ref := aksRef("nc")
	seen := Observed{Name: "nc", Kind: "AKSNodeClass", Found: true, Settings: aks.NodeClass{ImageFamily: "Ubuntu2404"}}.Encode()
	b := New()
	b.NodeClasses().Planned("nc", aks.NodeClass{ImageFamily: "AzureLinux"}, true, true)

	a := ForAnalysis(ref, seen, false)
	if a.State != ViewObserved || a.Settings != NodeClassSettings(aks.NodeClass{ImageFamily: "Ubuntu2404"}) || a.Label != "AKSNodeClass nc" {
		t.Errorf("ForAnalysis = %+v, want the observation", a)
	}
	if d := b.NodePools().ForDiagnostics(ref, a); d.State != ViewPlanned || d.Settings != NodeClassSettings(aks.NodeClass{ImageFamily: "AzureLinux"}) || d.Label != "AKSNodeClass nc as planned" {
		t.Errorf("ForDiagnostics = %+v, want the planned class", d)
	}
	for name, v := range map[string]NodeClassView{
		"create":          ForAnalysis(ref, seen, true),
		"another class":   ForAnalysis(aksRef("other"), seen, false),
		"nothing kept":    ForAnalysis(ref, nil, false),
		"pending planned": ForAnalysis(ref, Observed{Name: "nc", Kind: "AKSNodeClass", Found: true, Pending: true}.Encode(), false),
	} {
		if v.State != ViewUnknown {
			t.Errorf("%s: ForAnalysis = %+v, want ViewUnknown (known after apply)", name, v)
		}
	}
	d := New().NodePools().ForDiagnostics(aksRef("other"), NodeClassView{})
	if d.State != ViewUnknown || !d.Assumed || d.Label != "defaults assumed (AKSNodeClass other is not planned with this pool)" {
		t.Errorf("ForDiagnostics with nothing = %+v", d)
	}
	missing := Observed{Name: "gone", Kind: "AKSNodeClass", Why: "does not exist"}.Encode()
	if v := ForAnalysis(aksRef("gone"), missing, false); v.State != ViewObserved || !v.Assumed || v.Label != "defaults assumed (AKSNodeClass gone does not exist)" {
		t.Errorf("ForAnalysis of a missing class = %+v", v)
	}
}

// Observe prefers what the walk planned, reads the cluster only otherwise, and records a
// class planned for deletion as gone without asking the cluster.
func TestObserve(t *testing.T) {
	b := New()
	calls := 0
	live := func() (NodeClassSettings, bool, error) {
		calls++
		return aks.NodeClass{ImageFamily: "Ubuntu2204"}, true, nil
	}
	ref := aksRef
	b.NodeClasses().Planned("p", aks.NodeClass{ImageFamily: "AzureLinux"}, false, false)
	b.NodeClasses().Deleted("d")
	if o := b.NodePools().Observe(ref("p"), live); !o.Found || !o.Pending || o.Settings != NodeClassSettings(aks.NodeClass{ImageFamily: "AzureLinux"}) {
		t.Errorf("planned: %+v", o)
	}
	if o := b.NodePools().Observe(ref("d"), live); o.Found || o.Why != "does not exist" {
		t.Errorf("deleted: %+v", o)
	}
	if o := b.NodePools().Observe(Ref{Kind: "EC2NodeClass", Name: "e"}, live); o.Found {
		t.Errorf("other kind: %+v", o)
	}
	if calls != 0 {
		t.Errorf("the cluster was read %d times for classes the walk planned or another kind", calls)
	}
	if o := b.NodePools().Observe(ref("live"), live); !o.Found || o.Settings != NodeClassSettings(aks.NodeClass{ImageFamily: "Ubuntu2204"}) || calls != 1 {
		t.Errorf("live: %+v after %d reads", o, calls)
	}
}

// azure is the cloud of AKSNodeClass references.
var azure = aks.NewCloud(nil)

func aksRef(name string) Ref { return Ref{Kind: "AKSNodeClass", Name: name, Cloud: azure} }

// A new reference uses the class the walk plans to change, else the cluster's object; it stays
// unknown where Terraform's apply walk may see the class otherwise.
func TestForNewReference(t *testing.T) {
	b := New()
	reads := 0
	live := func(nc NodeClassSettings, found bool, err error) func() (NodeClassSettings, bool, error) {
		return func() (NodeClassSettings, bool, error) { reads++; return nc, found, err }
	}
	inCluster := live(aks.NodeClass{ImageFamily: "Ubuntu2404"}, true, nil)
	b.NodeClasses().Planned("changing", aks.NodeClass{ImageFamily: "AzureLinux"}, true, true)
	b.NodeClasses().Planned("unchanged", aks.NodeClass{ImageFamily: "AzureLinux"}, false, true)
	b.NodeClasses().Planned("pending", aks.NodeClass{}, true, false)
	b.NodeClasses().Deleted("deleted")
	pools := b.NodePools()

	if v := pools.ForNewReference(aksRef("changing"), inCluster); v.State != ViewPlanned || v.Label != "AKSNodeClass changing" ||
		v.Settings != NodeClassSettings(aks.NodeClass{ImageFamily: "AzureLinux"}) || reads != 0 {
		t.Errorf("a class the walk changes: %+v after %d reads, want its planned settings", v, reads)
	}
	// The apply walk does not plan an unchanged class again: both walks read the cluster.
	for _, name := range []string{"unchanged", "outside"} {
		if v := pools.ForNewReference(aksRef(name), inCluster); v.State != ViewObserved || v.Label != "AKSNodeClass "+name ||
			v.Settings != NodeClassSettings(aks.NodeClass{ImageFamily: "Ubuntu2404"}) {
			t.Errorf("%s: %+v, want the cluster's object", name, v)
		}
	}
	if reads != 2 {
		t.Errorf("%d reads of the cluster, want 2", reads)
	}
	for name, v := range map[string]NodeClassView{
		"pending":     pools.ForNewReference(aksRef("pending"), inCluster),
		"deleted":     pools.ForNewReference(aksRef("deleted"), inCluster),
		"not found":   pools.ForNewReference(aksRef("absent"), live(nil, false, nil)),
		"read failed": pools.ForNewReference(aksRef("absent"), live(nil, false, errors.New("connection refused"))),
	} {
		if v.State != ViewUnknown {
			t.Errorf("%s: %+v, want ViewUnknown (known after apply)", name, v)
		}
	}
	if v := pools.ForNewReference(Ref{Kind: "Other", Name: "x"}, inCluster); v.State == ViewUnknown || !v.Assumed ||
		v.Label != "defaults assumed (x is not a node class of a cloud this provider serves)" {
		t.Errorf("a kind of no cloud: %+v", v)
	}
}
