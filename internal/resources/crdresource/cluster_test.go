package crdresource

import (
	"strings"
	"testing"
)

// Import IDs: the plain name (the provider's cluster) as before, or the cluster's AKS ID and the
// name joined by "//"; anything else is an error saying what would be valid.
func TestParseImportID(t *testing.T) {
	const id = "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks-a"
	for _, tc := range []struct {
		in, cluster, name, err string
	}{
		{in: "general", name: "general"},
		{in: id + "//general", cluster: id, name: "general"},
		{in: id + "//", err: "no object name"},
		{in: "/subscriptions/x/resourceGroups/rg//general", err: "not an AKS cluster ID"},
		{in: "//general", err: "not an AKS cluster ID"},
	} {
		cluster, name, err := parseImportID(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "<aks_cluster_id>//<name>") {
				t.Errorf("parseImportID(%q) error = %v, want %q and the valid form", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || cluster != tc.cluster || name != tc.name {
			t.Errorf("parseImportID(%q) = %q, %q, %v; want %q, %q", tc.in, cluster, name, err, tc.cluster, tc.name)
		}
	}
}
