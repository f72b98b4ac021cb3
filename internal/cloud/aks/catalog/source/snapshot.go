package source

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// snapshotSKU is one entry of the reference snapshot's vm_skus.json: normalised
// facts (null = unknown) plus the raw capabilities map where an API listing had one.
type snapshotSKU struct {
	Name                      string   `json:"name"`
	Family                    *string  `json:"family"`
	Tier                      *string  `json:"tier"`
	Size                      *string  `json:"size"`
	VCPUs                     *int64   `json:"vcpus"`
	VCPUsAvailable            *int64   `json:"vcpus_available"`
	VCPUsPerCore              *int64   `json:"vcpus_per_core"`
	MemoryGiB                 *float64 `json:"memory_gib"`
	Arch                      *string  `json:"arch"`
	GPUCount                  *int64   `json:"gpu_count"`
	GPUModel                  *string  `json:"gpu_model"`
	GPUFraction               *string  `json:"gpu_fraction"`
	HyperVGenerations         []string `json:"hyperv_generations"`
	AcceleratedNetworking     *bool    `json:"accelerated_networking"`
	PremiumIO                 *bool    `json:"premium_io"`
	EphemeralOSDisk           *bool    `json:"ephemeral_os_supported"`
	EphemeralOSDiskPlacements *string  `json:"supported_ephemeral_os_disk_placements"`
	CachedDiskBytes           *int64   `json:"cached_disk_bytes"`
	ResourceDiskMiB           *int64   `json:"resource_disk_mb"`
	NVMeDiskMiB               *int64   `json:"nvme_disk_mib"`
	MaxDataDisks              *int64   `json:"max_data_disks"`
	MaxNetworkInterfaces      *int64   `json:"max_network_interfaces"`
	EncryptionAtHost          *bool    `json:"encryption_at_host"`
	Confidential              *bool    `json:"confidential"`
	ConfidentialComputingType *string  `json:"confidential_computing_type"`
	TrustedLaunchDisabled     *bool    `json:"trusted_launch_disabled"`
	UltraSSD                  *bool    `json:"ultra_ssd_available"`
	LowPriorityCapable        *bool    `json:"low_priority_capable"`
	ParentSize                *string  `json:"parent_size"`
	RetirementDate            *string  `json:"retirement_date_utc"`
	Source                    string   `json:"source"`
	KnownToKarpenter          bool     `json:"known_to_karpenter"`

	Capabilities catalog.CapabilityList `json:"capabilities"`
	Locations    map[string]struct {
		Zones        []string `json:"zones"`
		Restrictions []struct {
			Type       string   `json:"type"`
			Values     []string `json:"values"`
			Zones      []string `json:"zones"`
			ReasonCode string   `json:"reasonCode"`
		} `json:"restrictions"`
	} `json:"locations"`
}

func (b *Builder) readSnapshotSKUs(name string, data []byte) error {
	var list []snapshotSKU
	if err := json.Unmarshal(data, &list); err != nil {
		return err
	}
	for _, in := range list {
		if in.Name == "" || in.VCPUs == nil || in.MemoryGiB == nil {
			return fmt.Errorf("entry %q lacks name, vcpus or memory_gib", in.Name)
		}
		a := b.acc(in.Name)
		s := catalog.SKU{
			Name:                      in.Name,
			Tier:                      deref(in.Tier),
			Size:                      deref(in.Size),
			Family:                    deref(in.Family),
			VCPUs:                     *in.VCPUs,
			VCPUsAvailable:            optInt(in.VCPUsAvailable),
			VCPUsPerCore:              optInt(in.VCPUsPerCore),
			MemoryGiB:                 *in.MemoryGiB,
			Arch:                      deref(in.Arch),
			GPUCount:                  optInt(in.GPUCount),
			GPUModel:                  deref(in.GPUModel),
			GPUFraction:               deref(in.GPUFraction),
			HyperVGenerations:         in.HyperVGenerations,
			AcceleratedNetworking:     tri(in.AcceleratedNetworking),
			PremiumIO:                 tri(in.PremiumIO),
			EphemeralOSDisk:           tri(in.EphemeralOSDisk),
			CachedDiskBytes:           optInt(in.CachedDiskBytes),
			ResourceDiskMiB:           optInt(in.ResourceDiskMiB),
			NVMeDiskMiB:               optInt(in.NVMeDiskMiB),
			MaxDataDisks:              optInt(in.MaxDataDisks),
			MaxNetworkInterfaces:      optInt(in.MaxNetworkInterfaces),
			UltraSSD:                  tri(in.UltraSSD),
			EncryptionAtHost:          tri(in.EncryptionAtHost),
			Confidential:              tri(in.Confidential),
			ConfidentialComputingType: deref(in.ConfidentialComputingType),
			TrustedLaunchDisabled:     tri(in.TrustedLaunchDisabled),
			LowPriorityCapable:        tri(in.LowPriorityCapable),
			ParentSize:                deref(in.ParentSize),
			RetirementDate:            deref(in.RetirementDate),
			KnownToKarpenter:          in.KnownToKarpenter,
			Source:                    in.Source,
			Capabilities:              []catalog.Capability(in.Capabilities),
			Locations:                 a.sku.Locations,
		}
		if in.EphemeralOSDiskPlacements != nil {
			s.EphemeralOSDiskPlacements = strings.Split(*in.EphemeralOSDiskPlacements, ",")
		}
		for region, l := range in.Locations {
			loc := catalog.Location{Zones: nonNil(l.Zones)}
			for _, r := range l.Restrictions {
				loc.Restrictions = append(loc.Restrictions, catalog.Restriction{
					Type: r.Type, Values: r.Values, Zones: r.Zones, ReasonCode: r.ReasonCode,
				})
			}
			if s.Locations == nil {
				s.Locations = map[string]catalog.Location{}
			}
			s.Locations[strings.ToLower(region)] = loc
		}
		a.sku = s
	}
	b.note("%s: reference snapshot of Resource SKUs, %d sizes", name, len(list))
	return nil
}

// staticPrices is the reference snapshot of the Azure provider's static price
// table: region → ARM SKU name → on-demand USD/hour.
type staticPrices struct {
	Meta struct {
		GeneratedAt string `json:"generated_at"`
		Source      string `json:"source"`
		// Refreshed maps a region that make update-catalog fetched from the Retail Prices
		// API to the time it did: its prices are of that day, not of generated_at.
		Refreshed map[string]string `json:"refreshed"`
	} `json:"_meta"`
	OnDemand map[string]map[string]float64 `json:"on_demand"`
}

func (b *Builder) readStaticPrices(name string, data []byte) error {
	var in staticPrices
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	n := 0
	for region, bySKU := range in.OnDemand {
		for sku, price := range bySKU {
			if price < 0 {
				return fmt.Errorf("negative price for %s in %s", sku, region)
			}
			date := in.Meta.GeneratedAt
			if d, ok := in.Meta.Refreshed[region]; ok {
				date = d
			}
			b.setPrice(region, sku, false, price, date, catalog.ListSource(date))
			n++
		}
	}
	b.note("%s: static on-demand prices (%s, generated %s), %d regions, %d entries",
		name, in.Meta.Source, in.Meta.GeneratedAt, len(in.OnDemand), n)
	noteRefreshed(b, name, in.Meta.Refreshed)
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func optInt(v *int64) catalog.OptInt {
	if v == nil {
		return catalog.OptInt{}
	}
	return catalog.IntOf(*v)
}

func tri(v *bool) catalog.Tristate {
	if v == nil {
		return catalog.Unknown
	}
	return catalog.TristateOf(*v)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
