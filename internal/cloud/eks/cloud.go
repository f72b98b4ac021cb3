package eks

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	awsapis "github.com/aws/karpenter-provider-aws/pkg/apis"
	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// Name is the AWS cloud's name in the registry and in messages.
const Name = "AWS"

// NodeClassKind is the node-class kind Karpenter's AWS provider defines.
var NodeClassKind = schema.GroupKind{Group: awsapis.Group, Kind: "EC2NodeClass"}

// Cloud is EKS as the cloud seam sees it: EC2NodeClass, the embedded EC2 catalog, instance
// types derived by the AWS provider v1.14.1's own NewInstanceType (Derive), its label domains
// and the launch choice of its Create (launch.go).
type Cloud struct {
	cat func() *catalog.Catalog
}

var _ cloud.Cloud = (*Cloud)(nil)

// NewCloud returns the AWS cloud over a catalog; nil means the embedded one, decoded on first use.
func NewCloud(cat *catalog.Catalog) *Cloud {
	if cat == nil {
		return &Cloud{cat: catalog.Default}
	}
	return &Cloud{cat: func() *catalog.Catalog { return cat }}
}

func (c *Cloud) Name() string { return Name }

func (c *Cloud) NodeClassKinds() []schema.GroupKind { return []schema.GroupKind{NodeClassKind} }

// Class is an EC2NodeClass's instance-type-shaping settings as the seam keys caches with them:
// a comparable value (the settings' canonical JSON), since NodeClass holds maps and slices.
type Class struct{ spec string }

// Cloud names the cloud the node class belongs to (cloud.NodeClass).
func (Class) Cloud() string { return Name }

// NewClass wraps the settings; the default settings are the zero Class.
func NewClass(nc NodeClass) Class {
	if nc.AMIFamily == AMIFamilyAL2023 {
		nc.AMIFamily = "" // the same family: one cache entry
	}
	b, err := json.Marshal(nc)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	if string(b) == zeroSpec() {
		return Class{}
	}
	return Class{spec: string(b)}
}

var zeroSpec = sync.OnceValue(func() string {
	b, _ := json.Marshal(NodeClass{})
	return string(b)
})

// MarshalJSON writes the settings (the provider keeps an observed node class in private state).
func (c Class) MarshalJSON() ([]byte, error) {
	if c.spec == "" {
		return []byte(zeroSpec()), nil
	}
	return []byte(c.spec), nil
}

// UnmarshalJSON reads settings MarshalJSON wrote.
func (c *Class) UnmarshalJSON(b []byte) error {
	var nc NodeClass
	if err := json.Unmarshal(b, &nc); err != nil {
		return err
	}
	*c = NewClass(nc)
	return nil
}

// NodeClass returns the settings.
func (c Class) NodeClass() NodeClass {
	var nc NodeClass
	if c.spec != "" {
		_ = json.Unmarshal([]byte(c.spec), &nc)
	}
	return nc
}

// DefaultNodeClass is the AL2023 node class with no kubelet or block-device settings, the one
// upstream's docs generator uses.
func (c *Cloud) DefaultNodeClass() cloud.NodeClass { return NewClass(NodeClass{}) }

// DecodeNodeClass reads an EC2NodeClass object's instance-type-shaping settings, every
// invalid one at once at its field path.
func (c *Cloud) DecodeNodeClass(obj map[string]any) (cloud.NodeClass, error) {
	nc, err := NodeClassFromObject(obj)
	if err != nil {
		return nil, err
	}
	return NewClass(nc), nil
}

// NodeClassFromObject reads the settings of an EC2NodeClass object (unstructured content).
func NodeClassFromObject(obj map[string]any) (NodeClass, error) {
	in := &awsv1.EC2NodeClass{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, in); err != nil {
		return NodeClass{}, fmt.Errorf("reading EC2NodeClass: %w", err)
	}
	var aliases []string
	for _, t := range in.Spec.AMISelectorTerms {
		aliases = append(aliases, t.Alias)
	}
	family, err := AMIFamilyOf(in.Spec.AMIFamily, aliases)
	if err != nil {
		return NodeClass{}, err
	}
	nc := NodeClass{AMIFamily: family}
	if k := in.Spec.Kubelet; k != nil {
		nc.Kubelet = Kubelet{MaxPods: k.MaxPods, PodsPerCore: k.PodsPerCore, KubeReserved: k.KubeReserved,
			SystemReserved: k.SystemReserved, EvictionHard: k.EvictionHard, EvictionSoft: k.EvictionSoft}
	}
	for _, b := range in.Spec.BlockDeviceMappings {
		if b == nil {
			continue
		}
		m := BlockDeviceMapping{RootVolume: b.RootVolume}
		if b.DeviceName != nil {
			m.DeviceName = *b.DeviceName
		}
		if b.EBS != nil {
			m.VolumeSize = b.EBS.VolumeSize
		}
		nc.BlockDeviceMappings = append(nc.BlockDeviceMappings, m)
	}
	if p := in.Spec.InstanceStorePolicy; p != nil {
		nc.InstanceStorePolicy = string(*p)
	}
	if errs := nc.check(); len(errs) > 0 {
		return NodeClass{}, fmt.Errorf("invalid EC2NodeClass: %s", strings.Join(errs, "; "))
	}
	return nc, nil
}

// Regions are the regions the catalog has a price table for (on-demand: us-east-1, the
// GovCloud regions, cn-north-1; spot: the 2024 snapshot's regions), sorted.
func (c *Cloud) Regions() []string {
	cat := c.cat()
	out := append(cat.PriceRegions(catalog.OnDemand), cat.PriceRegions(catalog.Spot)...)
	slices.Sort(out)
	return slices.Compact(out)
}

func (c *Cloud) HasRegion(region string) bool {
	return slices.Contains(c.Regions(), strings.ToLower(region))
}

func (c *Cloud) ExampleRegion() string { return catalog.FallbackRegion }

// Currency is that of the on-demand table the region's offerings are priced from (CNY in
// cn-north-1; USD where the region has none and us-east-1's stands in, cn-northwest-1 too).
func (c *Cloud) Currency(region string) string {
	region = strings.ToLower(region)
	if region == cloud.AnyRegion {
		region = catalog.FallbackRegion
	}
	return c.cat().Currency(region)
}

// Zones are not in the public data at all: never known.
func (c *Cloud) Zones(string) ([]string, bool) { return nil, false }

// RegionCaveats says, once per analysis, what the EC2 catalog cannot tell about the region.
func (c *Cloud) RegionCaveats(region string) []string {
	out := []string{"the EC2 catalog has no availability zones (the public data has none): offerings are regional, so zone and single-zone checks are not judged"}
	cat := c.cat()
	region = strings.ToLower(region)
	if region == cloud.AnyRegion {
		return append(out, "no region is set: every instance type is listed with "+catalog.FallbackRegion+" prices")
	}
	if !slices.Contains(cat.PriceRegions(catalog.OnDemand), region) {
		out = append(out, fmt.Sprintf("the EC2 catalog has no on-demand price table for %s: prices are %s's, as Karpenter falls back to them, and every instance type priced there is taken to be offered in %s", region, catalog.FallbackRegion, region))
	}
	if !slices.Contains(cat.PriceRegions(catalog.Spot), region) {
		out = append(out, fmt.Sprintf("the EC2 catalog has no spot prices for %s: spot is priced at on-demand, as Karpenter does until it fetches spot prices", region))
	} else {
		out = append(out, "spot prices are the 2024-08-09 third-party snapshot, an estimate")
	}
	if cur := cat.Currency(region); cur != "USD" {
		out = append(out, fmt.Sprintf("prices in %s are in %s", region, cur))
	}
	return out
}

// labelDomains are the domains the AWS provider sets labels under.
var labelDomains = []string{awsapis.Group, "topology.k8s.aws"}

func (c *Cloud) LabelDomains() []string { return labelDomains }

// wellKnownLabels is karpv1.WellKnownLabels as the AWS provider's own binary has it: the core
// labels plus the ones its apis/v1 init adds (all under its label domains), without the Azure
// provider's, which this binary links too.
var wellKnownLabels = sync.OnceValue(func() sets.Set[string] { return cloud.WellKnownLabelsWith(labelDomains) })

func (c *Cloud) WellKnownLabels() sets.Set[string] { return wellKnownLabels() }

// Vocabulary is what Karpenter on EKS calls things.
func (c *Cloud) Vocabulary() cloud.Vocabulary {
	return cloud.Vocabulary{
		Kubernetes: "EKS", InstanceTypes: "EC2 instance types", InstanceType: "instance type", NodeClassKind: NodeClassKind.Kind,
		NodeClassDefaults: "AL2023, no kubelet or block-device settings", NodeClassResource: "karpenter_ec2nodeclass",
		Catalog: "EC2 catalog", SpotNotice: "spot instances can be interrupted with a two-minute notice", GPUResources: []string{string(ResourceNVIDIAGPU), string(ResourceAMDGPU), string(ResourceAWSNeuron), string(ResourceHabanaGaudi)},
		CPUKey: LabelInstanceCPU, MemoryKey: LabelInstanceMemory, FamilyKey: LabelInstanceFamily, CategoryKey: LabelInstanceCategory,
		GPUCountKey: LabelInstanceGPUCount, GPUNameKey: LabelInstanceGPUName, GPUManufacturerKey: LabelInstanceGPUManufacturer,
	}
}

// InstanceTypes derives every catalog type for the region and node class; AnyRegion derives
// them with FallbackRegion's prices and no region label. An invalid node class (which
// DecodeNodeClass already refuses) derives nothing.
func (c *Cloud) InstanceTypes(region string, nc cloud.NodeClass) []*cloud.InstanceType {
	cls, ok := nc.(Class)
	if !ok {
		return nil
	}
	cat := c.cat()
	region = strings.ToLower(region)
	deriveRegion := region
	if region == cloud.AnyRegion {
		deriveRegion = catalog.FallbackRegion
	}
	its, _, err := Derive(cat, deriveRegion, cls.NodeClass(), DefaultOptions())
	if err != nil {
		return nil
	}
	out := make([]*cloud.InstanceType, 0, len(its))
	for _, it := range its {
		if region == cloud.AnyRegion {
			delete(it.Requirements, corev1.LabelTopologyRegion)
		}
		t, _ := cat.Get(it.Name)
		out = append(out, &cloud.InstanceType{InstanceType: it, ZonesKnown: false,
			OnDemand:  seamPrice(cat, deriveRegion, it.Name, catalog.OnDemand),
			Spot:      seamPrice(cat, deriveRegion, it.Name, catalog.Spot),
			MemoryGiB: float64(t.MemoryMiB) / 1024})
	}
	slices.SortFunc(out, func(a, b *cloud.InstanceType) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// seamPrice is the offering's price with its provenance in the seam's terms.
func seamPrice(cat *catalog.Catalog, region, name string, ct catalog.CapacityType) cloud.Price {
	p, ok := cat.OfferingPrice(region, name, ct)
	if !ok {
		return cloud.Price{Basis: cloud.PriceMissing, Source: fmt.Sprintf("missing: no %s price for %s in %s, so Karpenter offers it no %s capacity", ct, name, region, ct)}
	}
	out := cloud.Price{Value: p.Value, Currency: p.Currency, Basis: cloud.PriceListed, Source: p.Source}
	switch {
	case !p.Estimate:
	case ct == catalog.Spot:
		out.Basis, out.Source = cloud.PriceSpotEstimated, "estimated: "+p.Source
	default:
		out.Basis, out.Source = cloud.PriceFromFallbackRegion, "estimated: "+p.Source
	}
	return out
}
