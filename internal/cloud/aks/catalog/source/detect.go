package source

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
)

type kind int

const (
	kindUnknown kind = iota
	kindKnownSKUs
	kindSnapshotSKUs
	kindResourceSKUs
	kindRetailPrices
	kindStaticPrices
	kindStaticSpotPrices
	kindPriceCorrections
	kindLocations
)

// detect looks at the shape of the data rather than at file names, so that API
// responses saved under any name are accepted.
func detect(name string, data []byte) kind {
	if ext := strings.ToLower(filepath.Ext(name)); ext == ".yaml" || ext == ".yml" {
		return kindKnownSKUs
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return kindUnknown
	}
	if data[0] == '[' {
		var probe []map[string]json.RawMessage
		if json.Unmarshal(data, &probe) != nil || len(probe) == 0 {
			return kindUnknown
		}
		return detectElement(probe[0])
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return kindUnknown
	}
	switch {
	case top["Items"] != nil:
		return kindRetailPrices
	case top["on_demand"] != nil:
		return kindStaticPrices
	case top["spot"] != nil:
		return kindStaticSpotPrices
	case top["mismatches"] != nil:
		return kindPriceCorrections
	case top["value"] != nil:
		var probe []map[string]json.RawMessage
		if json.Unmarshal(top["value"], &probe) != nil {
			return kindUnknown
		}
		if len(probe) == 0 {
			// An empty page of either list API contributes nothing either way.
			return kindResourceSKUs
		}
		return detectElement(probe[0])
	}
	return kindUnknown
}

func detectElement(e map[string]json.RawMessage) kind {
	switch {
	case e["resourceType"] != nil && e["capabilities"] != nil || e["locationInfo"] != nil:
		return kindResourceSKUs
	case e["vcpus"] != nil && e["memory_gib"] != nil:
		return kindSnapshotSKUs
	case e["regionalDisplayName"] != nil || e["availabilityZoneMappings"] != nil || e["metadata"] != nil:
		return kindLocations
	}
	return kindUnknown
}
