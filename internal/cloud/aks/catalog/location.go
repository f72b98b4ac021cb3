package catalog

import "strings"

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
