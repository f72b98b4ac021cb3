package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/refdata"
)

// priceFile is a reference price file: {"_meta": {...}, key: {region: {type: price}}}. Fields
// of _meta the refresh does not know are kept as they are.
type priceFile struct {
	path   string
	key    string
	meta   map[string]any
	prices map[string]map[string]float64
	rest   map[string]json.RawMessage
}

func readPriceFile(path, key string) (*priceFile, error) {
	raw, err := refdata.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f := &priceFile{path: path, key: key, meta: map[string]any{}, prices: map[string]map[string]float64{}, rest: top}
	if err := json.Unmarshal(top["_meta"], &f.meta); err != nil {
		return nil, fmt.Errorf("%s: _meta: %w", path, err)
	}
	if err := json.Unmarshal(top[key], &f.prices); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", path, key, err)
	}
	return f, nil
}

// regions lists the file's regions, sorted.
func (f *priceFile) regions() []string {
	out := make([]string, 0, len(f.prices))
	for r := range f.prices {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// set replaces one region's prices and records when in _meta.refreshed.
func (f *priceFile) set(region string, prices map[string]float64, at string) {
	f.prices[region] = prices
	refreshed, _ := f.meta["refreshed"].(map[string]any)
	if refreshed == nil {
		refreshed = map[string]any{}
	}
	refreshed[region] = at
	f.meta["refreshed"] = refreshed
}

func (f *priceFile) write() error {
	var err error
	if f.rest["_meta"], err = json.Marshal(f.meta); err != nil {
		return err
	}
	if f.rest[f.key], err = json.Marshal(f.prices); err != nil {
		return err
	}
	out, err := json.MarshalIndent(f.rest, "", " ")
	if err != nil {
		return err
	}
	return refdata.WriteFile(f.path, append(out, '\n'))
}

// regionsOr returns want, or the file's regions that keep passes when want is empty.
func regionsOr(want []string, f *priceFile, keep func(string) bool) []string {
	if len(want) > 0 {
		return want
	}
	var out []string
	for _, r := range f.regions() {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// commercialAWS: regions of the aws partition, reachable with one set of credentials.
func commercialAWS(region string) bool {
	return !strings.HasPrefix(region, "cn-") && !strings.HasPrefix(region, "us-gov-")
}
