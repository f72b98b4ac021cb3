package aks

import (
	"sort"

	"github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	"github.com/Azure/karpenter-provider-azure/pkg/utils/zones"
	"github.com/Azure/skewer"
	"github.com/samber/lo"
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// offeringZones returns the zone label values Karpenter offers the size in: the
// regional placement "0" always, plus "<region>-<n>" for each unrestricted zone.
// Sorted so that output does not depend on map order (upstream's is a set).
func offeringZones(sku *skewer.SKU, region string) []string {
	armZones := lo.Keys(sku.AvailabilityZones(region))
	sort.Strings(armZones)
	out := []string{zones.Regional}
	for _, z := range armZones {
		out = append(out, zones.MakeAKSLabelZoneFromARMZone(region, z))
	}
	return out
}

// offerings creates one on-demand and one spot offering per zone. On-demand is
// available wherever the size is listed (offline there is no capacity or quota
// signal); spot only where the SKU reports LowPriorityCapable, as upstream.
func offerings(sku *skewer.SKU, region string, onDemand, spot Price) cloudprovider.Offerings {
	var out cloudprovider.Offerings
	spotAvailable := sku.IsLowPriorityCapable()
	for _, zone := range offeringZones(sku, region) {
		scope := zones.PlacementScopeForZone(zone)
		ultra := ultraSSDOptions(sku, zone)
		out = append(out,
			&cloudprovider.Offering{
				Requirements: offeringRequirements(karpv1.CapacityTypeOnDemand, v1beta1.ScaleSetPriorityRegular, v1beta1.PriorityRegular, zone, scope, ultra),
				Price:        onDemand.Value,
				Available:    true,
			},
			&cloudprovider.Offering{
				Requirements: offeringRequirements(karpv1.CapacityTypeSpot, v1beta1.ScaleSetPrioritySpot, v1beta1.PrioritySpot, zone, scope, ultra),
				Price:        spot.Value,
				Available:    spotAvailable,
			},
		)
	}
	return out
}

func offeringRequirements(capacityType, scaleSetPriority, priority, zone, scope string, ultra []string) scheduling.Requirements {
	return scheduling.NewRequirements(
		scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, capacityType),
		scheduling.NewRequirement(v1beta1.AKSLabelScaleSetPriority, corev1.NodeSelectorOpIn, scaleSetPriority),
		scheduling.NewRequirement(v1beta1.AKSLabelPriority, corev1.NodeSelectorOpIn, priority),
		scheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, zone),
		scheduling.NewRequirement(v1beta1.LabelPlacementScope, corev1.NodeSelectorOpIn, scope),
		scheduling.NewRequirement(v1beta1.LabelUltraSSD, corev1.NodeSelectorOpIn, ultra...),
	)
}

// ultraSSDOptions: Ultra SSD is available regionally when the SKU says so, and
// in a zone when that zone's details say so; "false" is always possible.
func ultraSSDOptions(sku *skewer.SKU, zone string) []string {
	armZones := zones.MakeARMZonesFromAKSLabelZone(zone)
	switch {
	case len(armZones) == 0 && sku.IsUltraSSDAvailableWithoutAvailabilityZone(),
		len(armZones) == 1 && sku.IsUltraSSDAvailableInAvailabilityZone(*armZones[0]):
		return []string{"true", "false"}
	}
	return []string{"false"}
}
