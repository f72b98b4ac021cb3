package catalog

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Tristate is a yes/no fact that may not be known. The zero value is Unknown
// so that a field nobody filled in can never read as a confident "no".
type Tristate uint8

const (
	Unknown Tristate = iota
	No
	Yes
)

// TristateOf turns a known boolean into a Tristate.
func TristateOf(b bool) Tristate {
	if b {
		return Yes
	}
	return No
}

// Get returns the value and whether it is known.
func (t Tristate) Get() (value, known bool) { return t == Yes, t != Unknown }

// Known reports whether the fact is known.
func (t Tristate) Known() bool { return t != Unknown }

// IsYes reports whether the fact is known to be true.
func (t Tristate) IsYes() bool { return t == Yes }

func (t Tristate) String() string {
	switch t {
	case Yes:
		return "true"
	case No:
		return "false"
	default:
		return "unknown"
	}
}

// MarshalJSON writes null for Unknown so that JSON consumers see "absent", not false.
func (t Tristate) MarshalJSON() ([]byte, error) {
	switch t {
	case Yes:
		return []byte("true"), nil
	case No:
		return []byte("false"), nil
	default:
		return []byte("null"), nil
	}
}

func (t *Tristate) UnmarshalJSON(b []byte) error {
	switch strings.TrimSpace(string(b)) {
	case "true":
		*t = Yes
	case "false":
		*t = No
	case "null":
		*t = Unknown
	default:
		return fmt.Errorf("expected true, false or null, got %s", b)
	}
	return nil
}

// OptInt is an integer fact that may not be known.
type OptInt struct {
	Value int64
	Known bool
}

// IntOf wraps a known integer.
func IntOf(v int64) OptInt { return OptInt{Value: v, Known: true} }

// Get returns the value and whether it is known.
func (o OptInt) Get() (int64, bool) { return o.Value, o.Known }

func (o OptInt) MarshalJSON() ([]byte, error) {
	if !o.Known {
		return []byte("null"), nil
	}
	return json.Marshal(o.Value)
}

func (o *OptInt) UnmarshalJSON(b []byte) error {
	if strings.TrimSpace(string(b)) == "null" {
		*o = OptInt{}
		return nil
	}
	var v int64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*o = IntOf(v)
	return nil
}

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

// Location is what the Resource SKUs API says about a SKU in one region.
type Location struct {
	// Zones are the logical zones listed in locationInfo; empty means the SKU is
	// offered regionally only.
	Zones        []string      `json:"zones"`
	ZoneDetails  []ZoneDetail  `json:"zoneDetails,omitempty"`
	Restrictions []Restriction `json:"restrictions,omitempty"`
	// Capabilities replaces the SKU-wide capabilities for this region when the
	// API reported different ones here (UltraSSDAvailable typically varies).
	Capabilities []Capability `json:"capabilities,omitempty"`
}

// ZoneDetail carries capabilities that only hold in some zones.
type ZoneDetail struct {
	Zones        []string     `json:"zones"`
	Capabilities []Capability `json:"capabilities"`
}

// Restriction is a subscription-specific restriction as the API reports it.
type Restriction struct {
	Type       string   `json:"type"` // "Location" or "Zone"
	Values     []string `json:"values,omitempty"`
	Zones      []string `json:"zones,omitempty"`
	ReasonCode string   `json:"reasonCode,omitempty"`
}

// LocationRestricted reports a restriction that bars the whole region.
func (l Location) LocationRestricted(region string) bool {
	for _, r := range l.Restrictions {
		if strings.EqualFold(r.Type, RestrictionLocation) && containsFold(r.Values, region) {
			return true
		}
	}
	return false
}

// AvailableZones returns the listed zones minus restricted ones, with the same
// rules as skewer's AvailabilityZones: a location restriction empties the list.
func (l Location) AvailableZones(region string) []string {
	if l.LocationRestricted(region) {
		return []string{}
	}
	restricted := map[string]bool{}
	for _, r := range l.Restrictions {
		if containsFold(r.Values, region) {
			for _, z := range r.Zones {
				restricted[z] = true
			}
		}
	}
	out := make([]string, 0, len(l.Zones))
	for _, z := range l.Zones {
		if !restricted[z] {
			out = append(out, z)
		}
	}
	return out
}

const (
	RestrictionLocation = "Location"
	RestrictionZone     = "Zone"
)

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
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

// Prices holds the hourly USD prices of one SKU in one region.
type Prices struct {
	OnDemand    float64
	Spot        float64
	HasOnDemand bool
	HasSpot     bool
}

// Meta describes where the catalog came from.
type Meta struct {
	Sources []string `json:"sources,omitempty"`
}
