package source

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// resourceSKUsPage is a Resource SKUs API list response
// (GET /subscriptions/{id}/providers/Microsoft.Compute/skus), one page of it.
type resourceSKUsPage struct {
	Value    []resourceSKU `json:"value"`
	NextLink string        `json:"nextLink"`
}

type resourceSKU struct {
	ResourceType string                 `json:"resourceType"`
	Name         string                 `json:"name"`
	Tier         string                 `json:"tier"`
	Size         string                 `json:"size"`
	Family       string                 `json:"family"`
	Locations    []string               `json:"locations"`
	LocationInfo []resourceSKULocInfo   `json:"locationInfo"`
	Capabilities catalog.CapabilityList `json:"capabilities"`
	Restrictions []struct {
		Type            string   `json:"type"`
		Values          []string `json:"values"`
		RestrictionInfo struct {
			Locations []string `json:"locations"`
			Zones     []string `json:"zones"`
		} `json:"restrictionInfo"`
		ReasonCode string `json:"reasonCode"`
	} `json:"restrictions"`
}

type resourceSKULocInfo struct {
	Location    string   `json:"location"`
	Zones       []string `json:"zones"`
	ZoneDetails []struct {
		Name         []string               `json:"name"`
		Capabilities catalog.CapabilityList `json:"capabilities"`
	} `json:"zoneDetails"`
}

// readResourceSKUs accepts a list response ({"value": [...]}) or a bare array of
// entries. The API lists a size once per region with that region's capabilities,
// zones and restrictions; entries for other resource types are skipped.
func (b *Builder) readResourceSKUs(name string, data []byte) error {
	var entries []resourceSKU
	if trimmed := strings.TrimSpace(string(data)); strings.HasPrefix(trimmed, "[") {
		if err := json.Unmarshal(data, &entries); err != nil {
			return err
		}
	} else {
		var page resourceSKUsPage
		if err := json.Unmarshal(data, &page); err != nil {
			return err
		}
		entries = page.Value
	}
	n := 0
	for _, e := range entries {
		if !strings.EqualFold(e.ResourceType, "virtualMachines") {
			continue
		}
		if e.Name == "" {
			return fmt.Errorf("virtualMachines entry without a name")
		}
		n++
		a := b.acc(e.Name)
		s := &a.sku
		for _, f := range []struct {
			dst *string
			v   string
		}{{&s.Tier, e.Tier}, {&s.Size, e.Size}, {&s.Family, e.Family}} {
			if f.v != "" {
				*f.dst = f.v
			}
		}
		s.Source = "resource-skus-api"
		if a.apiCaps == nil {
			a.apiCaps = map[string][]catalog.Capability{}
		}
		regions := e.Locations
		if len(regions) == 0 {
			regions = []string{""}
		}
		for _, region := range regions {
			region = strings.ToLower(region)
			a.apiCaps[region] = []catalog.Capability(e.Capabilities)
			if region == "" {
				continue
			}
			loc := catalog.Location{Zones: []string{}}
			for _, li := range e.LocationInfo {
				if !strings.EqualFold(li.Location, region) {
					continue
				}
				loc.Zones = append(loc.Zones, li.Zones...)
				for _, zd := range li.ZoneDetails {
					loc.ZoneDetails = append(loc.ZoneDetails, catalog.ZoneDetail{
						Zones: zd.Name, Capabilities: []catalog.Capability(zd.Capabilities),
					})
				}
			}
			for _, r := range e.Restrictions {
				if !containsFold(r.Values, region) && !containsFold(r.RestrictionInfo.Locations, region) {
					continue
				}
				loc.Restrictions = append(loc.Restrictions, catalog.Restriction{
					Type: r.Type, Values: r.Values, Zones: r.RestrictionInfo.Zones, ReasonCode: r.ReasonCode,
				})
			}
			if s.Locations == nil {
				s.Locations = map[string]catalog.Location{}
			}
			s.Locations[region] = loc
		}
	}
	b.note("%s: Resource SKUs API listing, %d virtualMachines entries", name, n)
	return nil
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
