package aks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/Azure/karpenter-provider-azure/pkg/utils"
	"github.com/Azure/skewer"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// InstanceType is Karpenter's instance type plus what the catalog knows about
// how certain it is. ZonesKnown is false when the catalog has no Resource SKUs
// listing of the size in the region: its zones are then assumed (assumedZones).
type InstanceType = cloud.InstanceType

// Dropped is a SKU that yields no instance type, with every reason found.
type Dropped struct {
	SKU     string
	Reasons []Reason
}

// Result is the instance types of a region for one node class.
type Result struct {
	Region        string
	InstanceTypes []*InstanceType // sorted by name
	Dropped       []Dropped       // sorted by SKU name
}

// List derives the instance types Karpenter would offer in region for the node
// class, over every SKU the catalog knows to be offered there (priced there, or
// listed by the Resource SKUs API). A region the catalog has no data for yields
// nothing rather than another region's sizes: availability is not guessed.
func List(cat *catalog.Catalog, region string, nc NodeClass, cl Cluster) *Result {
	return ListSKUs(cat, region, cat.SKUsInRegion(region), nc, cl)
}

// ListSKUs is List over a chosen set of SKUs.
func ListSKUs(cat *catalog.Catalog, region string, skus []*catalog.SKU, nc NodeClass, cl Cluster) *Result {
	res := &Result{Region: region}
	for _, s := range skus {
		it, reasons := New(cat, region, s, nc, cl)
		if it == nil {
			res.Dropped = append(res.Dropped, Dropped{SKU: s.Name, Reasons: reasons})
			continue
		}
		res.InstanceTypes = append(res.InstanceTypes, it)
	}
	sort.Slice(res.InstanceTypes, func(i, j int) bool { return res.InstanceTypes[i].Name < res.InstanceTypes[j].Name })
	sort.Slice(res.Dropped, func(i, j int) bool { return res.Dropped[i].SKU < res.Dropped[j].SKU })
	return res
}

// RegionReasons returns why Karpenter's region-wide listing would drop the SKU
// (restricted, too small, unsupported GPU, ...), or nothing when it keeps it.
func RegionReasons(region string, s *catalog.SKU) []Reason {
	if !s.HasCapabilities() {
		return []Reason{ReasonNoCapabilities}
	}
	region = strings.ToLower(region)
	return regionReasons(toSkewer(s, region, nil), region)
}

// New derives one instance type, or returns nil and the reasons Karpenter would
// not offer the SKU in region for this node class. Region-level reasons are
// checked first and, when any applies, node-class reasons are not evaluated,
// as upstream never gets that far.
func New(cat *catalog.Catalog, region string, s *catalog.SKU, nc NodeClass, cl Cluster) (*InstanceType, []Reason) {
	if !s.HasCapabilities() {
		return nil, []Reason{ReasonNoCapabilities}
	}
	nc, cl = nc.withDefaults(), cl.withDefaults()
	region = strings.ToLower(region)
	sku := toSkewer(s, region, assumedZones(cat, region, s))
	if reasons := regionReasons(sku, region); len(reasons) > 0 {
		return nil, reasons
	}
	vmsize, _ := sku.GetVMSize()                    // parse errors were reasons above
	architecture, _ := sku.GetCPUArchitectureType() // likewise
	if reasons := nodeClassReasons(sku, architecture, nc); len(reasons) > 0 {
		return nil, reasons
	}

	onDemand, spot := skuPrices(cat, region, s)
	offers := offerings(sku, region, onDemand, spot)
	_, zonesKnown := s.Locations[region]
	return &InstanceType{
		InstanceType: &cloudprovider.InstanceType{
			Name:         s.Name,
			Requirements: requirements(sku, vmsize, architecture, region, offers, nc, cl),
			Offerings:    offers,
			Capacity:     capacity(sku, nc, cl),
			Overhead: &cloudprovider.InstanceTypeOverhead{
				KubeReserved:      KubeReserved(vcpuCount(sku), mustMemory(sku)),
				SystemReserved:    SystemReserved(),
				EvictionThreshold: EvictionThreshold(),
			},
		},
		MemoryGiB:  s.MemoryGiB,
		ZonesKnown: zonesKnown,
		OnDemand:   onDemand,
		Spot:       spot,
	}, nil
}

func capacity(sku *skewer.SKU, nc NodeClass, cl Cluster) corev1.ResourceList {
	gpus := func(enabled bool) resource.Quantity {
		n, err := sku.GPU()
		if err != nil || !enabled {
			n = 0
		}
		return *resources.Quantity(fmt.Sprint(n))
	}
	return corev1.ResourceList{
		corev1.ResourceCPU:              *resources.Quantity(fmt.Sprint(vcpuCount(sku))),
		corev1.ResourceMemory:           *MemoryWithoutOverhead(cl.VMMemoryOverheadPercent, mustMemory(sku)),
		corev1.ResourceEphemeralStorage: *resource.NewScaledQuantity(int64(nc.OSDiskSizeGB), resource.Giga),
		corev1.ResourcePods:             *resource.NewQuantity(int64(MaxPods(nc, cl)), resource.DecimalSI),
		ResourceNvidiaGPU:               gpus(utils.IsNvidiaEnabledSKU(sku.GetName())),
		ResourceAMDGPU:                  gpus(utils.IsAMDEnabledSKU(sku.GetName())),
	}
}

// Extended resources Karpenter's Azure provider reports GPUs as.
const (
	ResourceNvidiaGPU corev1.ResourceName = "nvidia.com/gpu"
	ResourceAMDGPU    corev1.ResourceName = "amd.com/gpu"
)

func mustMemory(sku *skewer.SKU) float64 {
	m, err := sku.Memory()
	if err != nil {
		panic(err) // unreachable: regionReasons drops SKUs without a memory size
	}
	return m
}

// assumedZones are the zones a size the catalog has no Resource SKUs listing of in region is
// taken to be offered in: every zone of the region, when the catalog knows the region's zones
// (none in a region without zones: regional placement only). The Azure provider offers a size in
// the zones its Resource SKUs listing names, less restricted ones (instanceTypeZones: skewer's
// AvailabilityZones), plus the regional placement "0"; the catalog's public listings cover few
// sizes (19 of 1,507 in eastus, none in westeurope), and assuming no zone made every zone-pinned
// or zone-spread pool unschedulable in the simulation while the analysis admitted the size. This
// is an assumption, not Azure's data (a size may lack a zone): InstanceType.ZonesKnown stays
// false, the instance-types data source lists no zones for the size, and a simulation marks a
// node in such a zone (simmodel.SimNode.ZoneAssumed) and names the sizes in its assumptions.
func assumedZones(cat *catalog.Catalog, region string, s *catalog.SKU) []string {
	if _, listed := s.Locations[region]; listed || cat == nil {
		return nil
	}
	r, ok := cat.Region(region)
	if !ok || !r.ZonesKnown {
		return nil
	}
	return r.Zones
}
