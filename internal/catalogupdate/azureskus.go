package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v7"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/refdata"
)

// refreshAzureSKUs lists each region's virtualMachines Resource SKUs and writes them, in the
// API's own format, to resource_skus.json, whose capabilities, zones and restrictions the
// generator prefers to vm_skus.json's. A failed region keeps the entries it had.
func refreshAzureSKUs(ctx context.Context, o options, r *report) error {
	path := filepath.Join(o.ref, "catalog", source.SnapshotResourceSKUs+".gz")
	byRegion, err := readResourceSKUs(path)
	if err != nil {
		return err
	}
	client, err := armcompute.NewResourceSKUsClient(o.subscription, o.credential, &arm.ClientOptions{ClientOptions: azcore.ClientOptions{
		Cloud: cloud.Configuration{
			ActiveDirectoryAuthorityHost: cloud.AzurePublic.ActiveDirectoryAuthorityHost,
			Services: map[cloud.ServiceName]cloud.ServiceConfiguration{cloud.ResourceManager: {
				Audience: cloud.AzurePublic.Services[cloud.ResourceManager].Audience, Endpoint: o.armEndpoint,
			}},
		},
		Transport: o.httpClient,
	}})
	if err != nil {
		return err
	}
	regions := o.azureRegions
	if len(regions) == 0 {
		od, err := readPriceFile(filepath.Join(o.ref, "catalog", source.SnapshotPrices), "on_demand")
		if err != nil {
			return err
		}
		regions = od.regions()
	}
	for _, region := range regions {
		entries, err := listSKUs(ctx, client, region)
		if err != nil {
			r.fail("Azure Resource SKUs", region, err)
			continue
		}
		byRegion[region] = entries
		r.refreshed("Azure %s: %d virtualMachines SKUs", region, len(entries))
	}
	var all []json.RawMessage
	keys := make([]string, 0, len(byRegion))
	for k := range byRegion {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		all = append(all, byRegion[k]...)
	}
	out, err := json.MarshalIndent(map[string]any{"value": all}, "", " ")
	if err != nil {
		return err
	}
	return refdata.WriteFile(path, append(out, '\n'))
}

func listSKUs(ctx context.Context, client *armcompute.ResourceSKUsClient, region string) ([]json.RawMessage, error) {
	pager := client.NewListPager(&armcompute.ResourceSKUsClientListOptions{Filter: to.Ptr(fmt.Sprintf("location eq '%s'", region))})
	var out []json.RawMessage
	for pages := 0; pager.More(); pages++ {
		if pages == maxPages {
			return nil, fmt.Errorf("more than %d pages", maxPages)
		}
		page, err := pager.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range page.Value {
			if s == nil || s.ResourceType == nil || !strings.EqualFold(*s.ResourceType, "virtualMachines") {
				continue
			}
			b, err := json.Marshal(s)
			if err != nil {
				return nil, err
			}
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no virtualMachines SKUs listed: is %q a region of the subscription?", region)
	}
	return out, nil
}

// readResourceSKUs groups the entries of an earlier refresh by their (one) location.
func readResourceSKUs(path string) (map[string][]json.RawMessage, error) {
	out := map[string][]json.RawMessage{}
	raw, err := refdata.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	} else if err != nil {
		return nil, err
	}
	var page struct {
		Value []json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, e := range page.Value {
		var loc struct {
			Locations []string `json:"locations"`
		}
		if err := json.Unmarshal(e, &loc); err != nil || len(loc.Locations) != 1 {
			return nil, fmt.Errorf("%s: an entry without exactly one location", path)
		}
		region := strings.ToLower(loc.Locations[0])
		out[region] = append(out[region], e)
	}
	return out, nil
}
