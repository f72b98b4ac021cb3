package catalog

import "strings"

// Capability is one raw Resource SKU capability, with the API's own name and
// string value ("vCPUs" = "4", "PremiumIO" = "True"). The instance-type
// derivation reads these exactly as Karpenter does, so they are kept verbatim.
type Capability struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// SKU is one Azure VM size. The typed fields are normalised facts (from the
// Resource SKU capabilities, or from documentation for sizes the API no longer
// lists); Capabilities holds the raw API capabilities when a source had them.
type SKU struct {
	Name   string `json:"name"`
	Tier   string `json:"tier,omitempty"`
	Size   string `json:"size,omitempty"`
	Family string `json:"family,omitempty"` // Azure quota family, e.g. standardDSv3Family

	VCPUs          int64   `json:"vcpus"`
	VCPUsAvailable OptInt  `json:"vcpusAvailable"`
	VCPUsPerCore   OptInt  `json:"vcpusPerCore"`
	MemoryGiB      float64 `json:"memoryGiB"`      // the API calls it MemoryGB but it is GiB
	Arch           string  `json:"arch,omitempty"` // Kubernetes spelling: amd64, arm64; "" when unknown

	GPUCount    OptInt `json:"gpuCount"`
	GPUFraction string `json:"gpuFraction,omitempty"` // e.g. "1/2" for partitioned GPUs
	GPUModel    string `json:"gpuModel,omitempty"`

	HyperVGenerations         []string `json:"hypervGenerations,omitempty"` // "V1", "V2"; nil when unknown
	AcceleratedNetworking     Tristate `json:"acceleratedNetworking"`
	PremiumIO                 Tristate `json:"premiumIO"`
	EphemeralOSDisk           Tristate `json:"ephemeralOSDisk"`
	EphemeralOSDiskPlacements []string `json:"ephemeralOSDiskPlacements,omitempty"`
	CachedDiskBytes           OptInt   `json:"cachedDiskBytes"`
	ResourceDiskMiB           OptInt   `json:"resourceDiskMiB"` // the API's MaxResourceVolumeMB, which is MiB
	NVMeDiskMiB               OptInt   `json:"nvmeDiskMiB"`
	MaxDataDisks              OptInt   `json:"maxDataDisks"`
	MaxNetworkInterfaces      OptInt   `json:"maxNetworkInterfaces"`
	UltraSSD                  Tristate `json:"ultraSSD"`

	EncryptionAtHost          Tristate `json:"encryptionAtHost"`
	Confidential              Tristate `json:"confidential"`
	ConfidentialComputingType string   `json:"confidentialComputingType,omitempty"` // SNP, TDX
	TrustedLaunchDisabled     Tristate `json:"trustedLaunchDisabled"`
	LowPriorityCapable        Tristate `json:"lowPriorityCapable"`

	ParentSize     string `json:"parentSize,omitempty"` // constrained-vCPU sizes point at their parent
	RetirementDate string `json:"retirementDate,omitempty"`

	// KnownToKarpenter is true when the Azure Karpenter provider lists the size in
	// its known_skus.yaml; it prices every other size at a penalty so that it is
	// never chosen automatically.
	KnownToKarpenter bool   `json:"knownToKarpenter"`
	Source           string `json:"source,omitempty"`

	Capabilities []Capability        `json:"capabilities,omitempty"`
	Locations    map[string]Location `json:"locations,omitempty"`
}

// Capability returns the raw capability value (case-insensitive name, as the API
// and skewer treat it) for the SKU as a whole.
func (s *SKU) Capability(name string) (string, bool) {
	return lookupCapability(s.Capabilities, name)
}

// CapabilitiesIn returns the raw capabilities as the Resource SKUs API reports
// them in region; they differ from the SKU-wide ones only where a per-region
// listing said so.
func (s *SKU) CapabilitiesIn(region string) []Capability {
	if loc, ok := s.Locations[region]; ok && loc.Capabilities != nil {
		return loc.Capabilities
	}
	return s.Capabilities
}

// HasCapabilities reports whether raw Resource SKU capabilities are known. Sizes
// taken from documentation only have normalised facts.
func (s *SKU) HasCapabilities() bool { return len(s.Capabilities) > 0 }

func lookupCapability(caps []Capability, name string) (string, bool) {
	for _, c := range caps {
		if strings.EqualFold(c.Name, name) {
			return c.Value, true
		}
	}
	return "", false
}

// Region is an Azure region as the Locations API describes it.
type Region struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName,omitempty"`
	// Zones are the region's logical availability zones; ZonesKnown is false when
	// no Locations API data covered the region.
	Zones      []string `json:"zones,omitempty"`
	ZonesKnown bool     `json:"zonesKnown"`
}

// Prices holds the hourly USD prices of one SKU in one region. The Source
// fields say where each price came from: "list YYYY-MM-DD" for a list price
// from a snapshot of that date, "override" for a price from an override file;
// "" when the builder of the data did not say (treated as an undated list price).
type Prices struct {
	OnDemand       float64
	Spot           float64
	HasOnDemand    bool
	HasSpot        bool
	OnDemandSource string
	SpotSource     string
}

// SourceOverride marks a price that an override file supplied.
const SourceOverride = "override"

// ListSource is the Source of a list price from a snapshot taken on date
// (an RFC 3339 timestamp or a YYYY-MM-DD date; only the day is kept).
func ListSource(date string) string {
	if len(date) > 10 {
		date = date[:10]
	}
	if date == "" {
		return "list"
	}
	return "list " + date
}

// Meta describes where the catalog came from.
type Meta struct {
	Sources []string `json:"sources,omitempty"`
	// Currency is the ISO 4217 code of every price ("" is USD, the embedded snapshots'); a
	// replace-mode override may set another.
	Currency string `json:"currency,omitempty"`
}
