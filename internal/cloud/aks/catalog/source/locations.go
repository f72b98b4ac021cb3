package source

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// locationEntry is one element of a Locations API list response
// (GET /subscriptions/{id}/locations).
type locationEntry struct {
	Name                     string `json:"name"`
	DisplayName              string `json:"displayName"`
	Type                     string `json:"type"`
	AvailabilityZoneMappings []struct {
		LogicalZone string `json:"logicalZone"`
	} `json:"availabilityZoneMappings"`
	Metadata struct {
		RegionType string `json:"regionType"`
	} `json:"metadata"`
}

// readLocations accepts the list response ({"value": [...]}) or a bare array.
// Logical regions ("global", geographies) are skipped: VMs cannot run there.
func (b *Builder) readLocations(name string, data []byte) error {
	var list []locationEntry
	if trimmed := strings.TrimSpace(string(data)); strings.HasPrefix(trimmed, "[") {
		if err := json.Unmarshal(data, &list); err != nil {
			return err
		}
	} else {
		var page struct {
			Value []locationEntry `json:"value"`
		}
		if err := json.Unmarshal(data, &page); err != nil {
			return err
		}
		list = page.Value
	}
	n := 0
	for _, l := range list {
		if l.Name == "" || strings.EqualFold(l.Metadata.RegionType, "Logical") {
			continue
		}
		r := catalog.Region{Name: strings.ToLower(l.Name), DisplayName: l.DisplayName, ZonesKnown: true}
		for _, m := range l.AvailabilityZoneMappings {
			r.Zones = append(r.Zones, m.LogicalZone)
		}
		sort.Strings(r.Zones)
		b.regions[r.Name] = r
		n++
	}
	b.note("%s: Locations API list, %d physical regions", name, n)
	return nil
}
