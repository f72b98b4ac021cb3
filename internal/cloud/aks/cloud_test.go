package aks

import (
	"slices"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// The Azure cloud answers the seam with what the solver read from the catalog directly before:
// zones as AKS labels them, List for a region and every SKU for AnyRegion, AKSNodeClass decoding.
func TestAzureCloudThroughTheSeam(t *testing.T) {
	c := NewCloud(nil)
	if got := c.NodeClassKinds(); len(got) != 1 || got[0].Group != "karpenter.azure.com" || got[0].Kind != "AKSNodeClass" {
		t.Errorf("kinds %v", got)
	}
	zones, known := c.Zones("WestEurope")
	if !known || !slices.Equal(zones, []string{"westeurope-1", "westeurope-2", "westeurope-3"}) {
		t.Errorf("westeurope zones %v known %v", zones, known)
	}
	if !c.HasRegion("WESTEUROPE") || c.HasRegion("example-1") {
		t.Error("HasRegion")
	}
	cat := catalog.Default()
	if got, want := len(c.InstanceTypes("westeurope", NodeClass{})), len(List(cat, "westeurope", NodeClass{}, Cluster{}).InstanceTypes); got != want || got == 0 {
		t.Errorf("westeurope: %d types through the seam, %d from List", got, want)
	}
	if got, want := len(c.InstanceTypes(cloud.AnyRegion, NodeClass{})), len(ListSKUs(cat, "", cat.SKUs(), NodeClass{}, Cluster{}).InstanceTypes); got != want {
		t.Errorf("any region: %d types, want %d", got, want)
	}
	nc, err := c.DecodeNodeClass(map[string]any{"spec": map[string]any{"imageFamily": "AzureLinux", "osDiskSizeGB": int64(64)}})
	if err != nil || nc != (NodeClass{ImageFamily: "AzureLinux", OSDiskSizeGB: 64, GPUMode: "Driver"}) {
		t.Errorf("decoded %+v, %v", nc, err)
	}
	if nc.Cloud() != c.Name() || c.DefaultNodeClass() != (NodeClass{}) {
		t.Error("node classes name their cloud")
	}
}
