package planstate

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

// An EC2NodeClass and an AKSNodeClass of one name are two objects: each kind's read finds
// only its own, and deleting one leaves the other planned. (Before, the board was keyed by
// name alone, so a planned EC2NodeClass would have answered for an AKSNodeClass reference.)
func TestNodeClassesAreKeyedByKind(t *testing.T) {
	b := New()
	b.NodeClasses().PlannedOf("EC2NodeClass", "default", nil, true, true)
	if c := b.NodePools().NodeClass("default"); c.Exists() {
		t.Errorf("the AKSNodeClass default is found through an EC2NodeClass of that name: %+v", c)
	}
	if c := b.NodePools().NodeClassOf("EC2NodeClass", "default"); !c.Exists() {
		t.Errorf("the planned EC2NodeClass is not found: %+v", c)
	}
	b.NodeClasses().Planned("default", aks.NodeClass{ImageFamily: "AzureLinux"}, true, true)
	b.NodeClasses().DeletedOf("EC2NodeClass", "default")
	if c := b.NodePools().NodeClass("default"); !c.Exists() || c.Settings != NodeClassSettings(aks.NodeClass{ImageFamily: "AzureLinux"}) {
		t.Errorf("deleting the EC2NodeClass changed the AKSNodeClass: %+v", c)
	}
	if c := b.NodePools().NodeClassOf("EC2NodeClass", "default"); c.State != NodeClassDeleted {
		t.Errorf("EC2NodeClass default after its deletion: %+v", c)
	}
	// A pool referencing the AKSNodeClass observes it, not the deleted EC2NodeClass.
	if o := b.NodePools().Observe(aksRef("default"), func() (NodeClassSettings, bool, error) { t.Fatal("read the cluster"); return nil, false, nil }); !o.Found {
		t.Errorf("observed %+v, want the planned AKSNodeClass", o)
	}
}
