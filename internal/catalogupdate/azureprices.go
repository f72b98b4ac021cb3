package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"time"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/source"
)

// maxPages bounds one region's paging: the API serves 1,000 items a page, and the largest
// region has under 20,000 Virtual Machines meters.
const maxPages = 200

// refreshAzurePrices replaces each region's on-demand and spot prices with the Retail Prices
// API's current Linux Consumption prices, filtered as the Azure Karpenter provider filters them.
func refreshAzurePrices(ctx context.Context, o options, r *report) error {
	od, err := readPriceFile(filepath.Join(o.ref, "catalog", source.SnapshotPrices), "on_demand")
	if err != nil {
		return err
	}
	spot, err := readPriceFile(filepath.Join(o.ref, "catalog", source.SnapshotSpot), "spot")
	if err != nil {
		return err
	}
	regions := o.azureRegions
	if len(regions) == 0 {
		seen := map[string]bool{}
		for _, f := range []*priceFile{od, spot} {
			for _, reg := range f.regions() {
				if !seen[reg] {
					seen[reg] = true
					regions = append(regions, reg)
				}
			}
		}
	}
	at := o.now.Format(time.RFC3339)
	for _, region := range regions {
		odPrices, spotPrices, err := retailPrices(ctx, o, region)
		if err == nil && len(odPrices) == 0 {
			err = fmt.Errorf("no Linux Consumption prices: is %q an Azure region?", region)
		}
		if err != nil {
			r.fail("Azure prices", region, err)
			continue
		}
		od.set(region, odPrices, at)
		if len(spotPrices) > 0 {
			spot.set(region, spotPrices, at)
		}
		r.refreshed("Azure %s: %d on-demand, %d spot prices", region, len(odPrices), len(spotPrices))
	}
	if err := od.write(); err != nil {
		return err
	}
	return spot.write()
}

// retailPrices pages through one region's Virtual Machines prices. Where a size has several
// meters the newest wins, and on the same date the lower, as the generator decides.
func retailPrices(ctx context.Context, o options, region string) (od, spot map[string]float64, err error) {
	q := url.Values{}
	q.Set("currencyCode", "USD")
	q.Set("$filter", fmt.Sprintf("serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and armRegionName eq '%s'", region))
	next := o.pricesURL + "?" + q.Encode()
	base, err := url.Parse(o.pricesURL)
	if err != nil {
		return nil, nil, err
	}
	od, spot = map[string]float64{}, map[string]float64{}
	dates := map[bool]map[string]string{false: {}, true: {}}
	for page := 0; next != ""; page++ {
		if page == maxPages {
			return nil, nil, fmt.Errorf("more than %d pages", maxPages)
		}
		// NextPageLink is followed only on the API's own host: a page cannot send the refresh elsewhere.
		u, err := url.Parse(next)
		if err != nil || u.Scheme != base.Scheme || u.Host != base.Host {
			return nil, nil, fmt.Errorf("NextPageLink %q is not on %s", next, base.Host)
		}
		body, err := get(ctx, o, next)
		if err != nil {
			return nil, nil, err
		}
		kept, _, link, err := source.RetailPricesPage(body)
		if err != nil {
			return nil, nil, fmt.Errorf("page %d: %w", page+1, err)
		}
		for _, p := range kept {
			if p.Region != region {
				continue
			}
			m := od
			if p.Spot {
				m = spot
			}
			cur, has := m[p.SKU]
			d := p.EffectiveStartDate
			if !has || d > dates[p.Spot][p.SKU] || (d == dates[p.Spot][p.SKU] && p.Price < cur) {
				m[p.SKU], dates[p.Spot][p.SKU] = p.Price, d
			}
		}
		next = link
	}
	return od, spot, nil
}

// get fetches one page, waiting out 429 and 503 answers as their Retry-After says (at most
// o.maxRetryAfter each, five tries in all).
func get(ctx context.Context, o options, u string) ([]byte, error) {
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		resp, err := o.httpClient.Do(req)
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		switch {
		case resp.StatusCode == http.StatusOK:
			return body, nil
		case (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) && attempt < 5:
			wait := retryAfter(resp.Header.Get("Retry-After"), attempt)
			if wait > o.maxRetryAfter {
				wait = o.maxRetryAfter
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(wait):
			}
		default:
			return nil, fmt.Errorf("GET %s: %s: %.200s", u, resp.Status, body)
		}
	}
}

// retryAfter reads Retry-After (seconds or an HTTP date); without one, 2^attempt seconds.
func retryAfter(h string, attempt int) time.Duration {
	if s, err := strconv.Atoi(h); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return time.Until(t)
	}
	return time.Duration(1<<attempt) * time.Second
}
