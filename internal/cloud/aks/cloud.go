package aks

import (
	"fmt"
	"strings"
	"sync"

	azv1beta1 "github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// Name is the Azure cloud's name in the registry.
const Name = "Azure"

// NodeClassKind is the node-class kind Karpenter's Azure provider defines.
var NodeClassKind = schema.GroupKind{Group: azv1beta1.Group, Kind: "AKSNodeClass"}

// Cloud is Azure as the cloud seam sees it: AKSNodeClass, the SKU catalog (the embedded one
// or an override), instance types derived as the Azure provider v1.14.2 derives them, its
// label domains and the launch choice of its default allocation strategy.
type Cloud struct {
	cat     func() *catalog.Catalog
	cluster Cluster
}

var _ cloud.Cloud = (*Cloud)(nil)

// NewCloud returns the Azure cloud over a catalog; nil means the embedded one, decoded on first use.
// The cluster-wide options are the provider's defaults (Azure CNI overlay, 7.5 % VM memory
// overhead), as an offline plan has no cluster to read them from.
func NewCloud(cat *catalog.Catalog) *Cloud {
	if cat == nil {
		return &Cloud{cat: catalog.Default}
	}
	return &Cloud{cat: func() *catalog.Catalog { return cat }}
}

// WithCluster returns the cloud with other cluster-wide options.
func (c *Cloud) WithCluster(cl Cluster) *Cloud { return &Cloud{cat: c.cat, cluster: cl} }

// Catalog is the catalog the cloud derives instance types from.
func (c *Cloud) Catalog() *catalog.Catalog { return c.cat() }

func (c *Cloud) Name() string { return Name }

func (c *Cloud) NodeClassKinds() []schema.GroupKind { return []schema.GroupKind{NodeClassKind} }

func (c *Cloud) DefaultNodeClass() cloud.NodeClass { return NodeClass{} }

// DecodeNodeClass reads an AKSNodeClass object's instance-type-shaping settings.
func (c *Cloud) DecodeNodeClass(obj map[string]any) (cloud.NodeClass, error) {
	return NodeClassFromObject(obj)
}

// NodeClassFromObject reads the instance-type-shaping settings of an AKSNodeClass object.
func NodeClassFromObject(obj map[string]any) (NodeClass, error) {
	nc := &azv1beta1.AKSNodeClass{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, nc); err != nil {
		return NodeClass{}, fmt.Errorf("reading AKSNodeClass: %w", err)
	}
	return FromAKSNodeClass(nc), nil
}

// Cloud names the cloud an AKSNodeClass belongs to (cloud.NodeClass).
func (NodeClass) Cloud() string { return Name }

func (c *Cloud) Regions() []string { return c.cat().Regions() }

func (c *Cloud) HasRegion(region string) bool {
	_, ok := c.cat().Region(strings.ToLower(region))
	return ok
}

func (c *Cloud) ExampleRegion() string { return "westeurope" }

// Currency is the catalog's: USD, unless a replace-mode checks.catalog_path file names another.
func (c *Cloud) Currency(string) string { return c.cat().Currency() }

// Zones returns the region's zones as AKS labels them ("westeurope-1").
func (c *Cloud) Zones(region string) ([]string, bool) {
	region = strings.ToLower(region)
	r, ok := c.cat().Region(region)
	if !ok || !r.ZonesKnown {
		return nil, false
	}
	out := make([]string, len(r.Zones))
	for i, z := range r.Zones {
		out[i] = zoneLabel(region, z)
	}
	return out, true
}

// zoneLabel is the topology.kubernetes.io/zone value AKS gives a region's logical zone.
func zoneLabel(region, zone string) string {
	if strings.HasPrefix(zone, region+"-") {
		return zone
	}
	return region + "-" + zone
}

// InstanceTypes is List for a region, and for AnyRegion every size of the catalog as if one
// region offered them all: labels and capacity do not depend on the region, and deriving 57
// regions one by one would take seconds. A node class of another cloud derives nothing.
func (c *Cloud) InstanceTypes(region string, nc cloud.NodeClass) []*cloud.InstanceType {
	anc, ok := nc.(NodeClass)
	if !ok {
		return nil
	}
	cat := c.cat()
	region = strings.ToLower(region)
	if region == cloud.AnyRegion {
		return ListSKUs(cat, region, cat.SKUs(), anc, c.cluster).InstanceTypes
	}
	return List(cat, region, anc, c.cluster).InstanceTypes
}

// labelDomains are the domains the Azure provider sets labels under (karpenter.azure.com for
// its instance-type labels, kubernetes.azure.com for AKS's node labels).
var labelDomains = []string{azv1beta1.Group, "kubernetes.azure.com"}

func (c *Cloud) LabelDomains() []string { return labelDomains }

// WellKnownLabels is Karpenter's set as the Azure provider's own binary has it: the core
// labels plus the ones its v1beta1 package adds in its init. The process-wide
// karpv1.WellKnownLabels also holds the AWS provider's labels (linked in for EKS), which
// Karpenter on AKS does not know: an AKS pool's karpenter.k8s.aws/* requirement is a custom
// label there.
var wellKnownLabels = sync.OnceValue(func() sets.Set[string] {
	return cloud.CoreWellKnownLabels().Union(azv1beta1.AzureWellKnownLabels)
})

func (c *Cloud) WellKnownLabels() sets.Set[string] { return wellKnownLabels() }

// Vocabulary is what Karpenter on AKS calls things, and its labels for the attributes every
// cloud has.
func (c *Cloud) Vocabulary() cloud.Vocabulary {
	return cloud.Vocabulary{
		Kubernetes: "AKS", InstanceTypes: "Azure VM sizes", InstanceType: "size", NodeClassKind: NodeClassKind.Kind,
		NodeClassDefaults: "Ubuntu, 128 GB OS disk", NodeClassResource: "karpenter_aksnodeclass",
		Catalog: "SKU catalog", SpotNotice: "spot VMs can be evicted at 30 seconds' notice", GPUResources: []string{"nvidia.com/gpu"},
		CPUKey: azv1beta1.LabelSKUCPU, MemoryKey: azv1beta1.LabelSKUMemory, FamilyKey: azv1beta1.LabelSKUFamily,
		GPUCountKey: azv1beta1.LabelSKUGPUCount, GPUNameKey: azv1beta1.LabelSKUGPUName, GPUManufacturerKey: azv1beta1.LabelSKUGPUManufacturer,
	}
}
