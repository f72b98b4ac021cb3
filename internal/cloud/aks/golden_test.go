package aks

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/reftest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/refdata"
)

// The golden file is the Azure provider's own instance-type code run over 32
// real SKU listings of two regions, for five node classes.
type golden struct {
	Grid    []gridCell
	Regions map[string]goldenRegion
}

type gridCell struct {
	VCPU                   int64   `json:"vcpu"`
	MemoryGiB              float64 `json:"memoryGiB"`
	KubeReservedCPU        string  `json:"kubeReservedCPU"`
	KubeReservedMemory     string  `json:"kubeReservedMemory"`
	CapacityMemory         string  `json:"capacityMemoryAfterVMOverhead"`
	CapacityMemoryBytes    int64   `json:"capacityMemoryAfterVMOverheadBytes"`
	AllocatableCPUMilli    int64   `json:"allocatableCPUMilli"`
	AllocatableMemoryBytes int64   `json:"allocatableMemoryBytes"`
}

type goldenRegion struct {
	FilterReasons map[string][]string
	Variants      map[string]goldenVariant
}

type goldenVariant struct {
	NodeClassSpec nodeClassSpec        `json:"nodeClassSpec"`
	InstanceTypes []goldenInstanceType `json:"instanceTypes"`
}

// nodeClassSpec is the AKSNodeClass spec subset the golden variants use,
// including security.trustedLaunch from after v1.14.2.
type nodeClassSpec struct {
	ImageFamily  string `json:"imageFamily"`
	OSDiskSizeGB int32  `json:"osDiskSizeGB"`
	MaxPods      int32  `json:"maxPods"`
	FIPSMode     string `json:"fipsMode"`
	GPU          struct {
		Mode string `json:"mode"`
	} `json:"gpu"`
	Security struct {
		EncryptionAtHost bool `json:"encryptionAtHost"`
		TrustedLaunch    struct {
			VTPM       bool `json:"vtpm"`
			SecureBoot bool `json:"secureBoot"`
		} `json:"trustedLaunch"`
	} `json:"security"`
}

func (s nodeClassSpec) nodeClass() NodeClass {
	return NodeClass{
		ImageFamily: s.ImageFamily, OSDiskSizeGB: s.OSDiskSizeGB, MaxPods: s.MaxPods, FIPSMode: s.FIPSMode,
		GPUMode: s.GPU.Mode, EncryptionAtHost: s.Security.EncryptionAtHost,
		VTPM: s.Security.TrustedLaunch.VTPM, SecureBoot: s.Security.TrustedLaunch.SecureBoot,
	}
}

type goldenRequirement struct {
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

type goldenOffering struct {
	Zone           string   `json:"zone"`
	CapacityType   string   `json:"capacityType"`
	PlacementScope string   `json:"placementScope"`
	UltraSSD       []string `json:"ultraSSD"`
	Price          float64  `json:"price"`
	Available      bool     `json:"available"`
}

type goldenInstanceType struct {
	Name              string                       `json:"name"`
	Requirements      map[string]goldenRequirement `json:"requirements"`
	Capacity          map[string]string            `json:"capacity"`
	KubeReserved      map[string]string            `json:"kubeReserved"`
	SystemReserved    map[string]string            `json:"systemReserved"`
	EvictionThreshold map[string]string            `json:"evictionThreshold"`
	Allocatable       map[string]string            `json:"allocatable"`
	Offerings         []goldenOffering             `json:"offerings"`
}

// goldenClusterLabel is the node resource group the golden run was configured with.
const goldenClusterLabel = "MC_myrg_mycluster_REGION"

func loadGolden(t testing.TB) golden {
	t.Helper()
	raw := readJSON[map[string]json.RawMessage](t, reftest.Dir(t, "upstream", "golden_instancetypes_from_upstream_code.json"))
	g := golden{Regions: map[string]goldenRegion{}}
	for key, msg := range raw {
		if key == "_kubeReservedGrid" {
			mustUnmarshal(t, msg, &g.Grid)
			continue
		}
		var parts map[string]json.RawMessage
		mustUnmarshal(t, msg, &parts)
		r := goldenRegion{Variants: map[string]goldenVariant{}}
		for name, part := range parts {
			if name == "filterReasons" {
				mustUnmarshal(t, part, &r.FilterReasons)
				continue
			}
			var v goldenVariant
			mustUnmarshal(t, part, &v)
			r.Variants[name] = v
		}
		g.Regions[key] = r
	}
	if len(g.Grid) == 0 || len(g.Regions) == 0 {
		t.Fatal("golden file has no grid or no regions")
	}
	return g
}

type fixtureFile struct {
	SKUs []fixtureSKU `json:"skus"`
}

// fixtureSKU is one of the 32 SKU listings the golden run read.
type fixtureSKU struct {
	Region       string            `json:"region"`
	Name         string            `json:"name"`
	Size         string            `json:"size"`
	Tier         string            `json:"tier"`
	Family       string            `json:"azureFamily"`
	Zones        []string          `json:"zones"`
	Capabilities map[string]string `json:"capabilities"`
	Restrictions []struct {
		Type       string   `json:"type"`
		Values     []string `json:"values"`
		Zones      []string `json:"zones"`
		ReasonCode string   `json:"reasonCode"`
	} `json:"restrictions"`
}

// fixtureCatalog turns the fixtures back into what the Resource SKUs API returns
// (one entry per region) and builds a catalog from that through the same reader
// and builder the generator uses, with the known-SKU list from the reference
// snapshot and the prices of the embedded catalog. The parity test thus covers
// reading, merging per-region capabilities, and the embedded prices too.
func fixtureCatalog(t testing.TB) (*catalog.Catalog, map[string][]*catalog.SKU) {
	t.Helper()
	fx := readJSON[fixtureFile](t, reftest.Dir(t, "upstream", "sku_fixtures_with_karpenter_labels.json"))

	type apiRestriction struct {
		Type            string              `json:"type"`
		Values          []string            `json:"values"`
		RestrictionInfo map[string][]string `json:"restrictionInfo"`
		ReasonCode      string              `json:"reasonCode"`
	}
	var entries []map[string]any
	for _, f := range fx.SKUs {
		caps := make([]map[string]string, 0, len(f.Capabilities))
		for _, name := range sortedKeys(f.Capabilities) {
			caps = append(caps, map[string]string{"name": name, "value": f.Capabilities[name]})
		}
		restrictions := []apiRestriction{}
		for _, r := range f.Restrictions {
			restrictions = append(restrictions, apiRestriction{
				Type: r.Type, Values: r.Values, ReasonCode: r.ReasonCode,
				RestrictionInfo: map[string][]string{"locations": r.Values, "zones": r.Zones},
			})
		}
		entries = append(entries, map[string]any{
			"resourceType": "virtualMachines", "name": f.Name, "tier": f.Tier, "size": f.Size, "family": f.Family,
			"locations":    []string{f.Region},
			"locationInfo": []map[string]any{{"location": f.Region, "zones": f.Zones}},
			"capabilities": caps, "restrictions": restrictions,
		})
	}
	page, err := json.Marshal(map[string]any{"value": entries})
	if err != nil {
		t.Fatal(err)
	}
	b := source.NewBuilder()
	if err := b.Read("fixtures-as-resource-skus.json", page); err != nil {
		t.Fatal(err)
	}
	if err := b.ReadFile(reftest.Dir(t, "catalog", source.SnapshotKnownSKUs)); err != nil {
		t.Fatal(err)
	}
	data, err := b.Data()
	if err != nil {
		t.Fatal(err)
	}
	for _, region := range []string{"southcentralus", "westcentralus"} {
		data.Prices[region] = catalog.Default().PriceList(region)
	}
	cat, err := catalog.New(data)
	if err != nil {
		t.Fatal(err)
	}
	byRegion := map[string][]*catalog.SKU{}
	for _, f := range fx.SKUs {
		s, _ := cat.SKU(f.Name)
		byRegion[f.Region] = append(byRegion[f.Region], s)
	}
	return cat, byRegion
}

func readJSON[T any](t testing.TB, path string) T {
	t.Helper()
	b, err := refdata.ReadFile(filepath.Clean(path))
	if err != nil {
		t.Fatal(err)
	}
	var v T
	mustUnmarshal(t, b, &v)
	return v
}

func mustUnmarshal(t testing.TB, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
