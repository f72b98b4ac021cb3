package aks

import (
	"strings"

	"github.com/Azure/azure-sdk-for-go/services/compute/mgmt/2022-08-01/compute" //nolint:staticcheck // skewer's SKU type is defined on this API version
	"github.com/Azure/skewer"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// toSkewer rebuilds the Resource SKU the way the API would have listed it in
// region, so that skewer's parsing — the code Karpenter itself runs — reads it.
// Without a listing for the region the SKU is listed in the assumed zones (the
// region's, see assumedZones) with no restrictions; with none assumed it carries
// no location info, which skewer reads as "no zones, no restrictions".
func toSkewer(s *catalog.SKU, region string, assumed []string) *skewer.SKU {
	out := &skewer.SKU{
		Name:         ptr(s.Name),
		Tier:         ptr(s.Tier),
		Size:         ptr(s.Size),
		Family:       ptr(s.Family),
		ResourceType: ptr("virtualMachines"),
		Capabilities: apiCapabilities(s.CapabilitiesIn(region)),
	}
	loc, ok := s.Locations[strings.ToLower(region)]
	if !ok {
		if len(assumed) == 0 {
			return out
		}
		loc = catalog.Location{Zones: assumed}
	}
	info := compute.ResourceSkuLocationInfo{Location: ptr(region), Zones: ptr(append([]string(nil), loc.Zones...))}
	var details []compute.ResourceSkuZoneDetails
	for _, zd := range loc.ZoneDetails {
		details = append(details, compute.ResourceSkuZoneDetails{
			Name:         ptr(append([]string(nil), zd.Zones...)),
			Capabilities: apiCapabilities(zd.Capabilities),
		})
	}
	info.ZoneDetails = &details
	out.Locations = &[]string{region}
	out.LocationInfo = &[]compute.ResourceSkuLocationInfo{info}
	restrictions := make([]compute.ResourceSkuRestrictions, 0, len(loc.Restrictions))
	for _, r := range loc.Restrictions {
		restrictions = append(restrictions, compute.ResourceSkuRestrictions{
			Type:   compute.ResourceSkuRestrictionsType(r.Type),
			Values: ptr(append([]string(nil), r.Values...)),
			RestrictionInfo: &compute.ResourceSkuRestrictionInfo{
				Locations: ptr(append([]string(nil), r.Values...)),
				Zones:     ptr(append([]string(nil), r.Zones...)),
			},
			ReasonCode: compute.ResourceSkuRestrictionsReasonCode(r.ReasonCode),
		})
	}
	out.Restrictions = &restrictions
	return out
}

func apiCapabilities(caps []catalog.Capability) *[]compute.ResourceSkuCapabilities {
	out := make([]compute.ResourceSkuCapabilities, len(caps))
	for i := range caps {
		out[i] = compute.ResourceSkuCapabilities{Name: &caps[i].Name, Value: &caps[i].Value}
	}
	return &out
}

func ptr[T any](v T) *T { return &v }
