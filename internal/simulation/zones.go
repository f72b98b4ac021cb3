package simulation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// ZoneAssumptions say which of a result's nodes are in a zone the catalog does not list for
// their size (SimNode.ZoneAssumed): the embedded AKS catalog has Resource SKUs zone listings of
// few sizes (19 of 1,507 in eastus, none in westeurope), and a size without one is taken as
// offered in every zone of the region (cloud/aks assumedZones). The Azure provider offers a size
// only in the zones its Resource SKUs listing names, so a node of the result may be one Karpenter
// cannot launch in that zone; the assumption must be said with the numbers. None when no node is.
func ZoneAssumptions(sim *simmodel.Simulation) []string {
	if sim == nil {
		return nil
	}
	var sizes []string
	n := 0
	for _, node := range sim.Nodes {
		if node.ZoneAssumed {
			n++
			sizes = append(sizes, node.SKU)
		}
	}
	if n == 0 {
		return nil
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	return []string{fmt.Sprintf("%s: %d of %d nodes are in zones ASSUMED, not listed: the embedded catalog has no Resource SKUs zone listing of %s in %s, "+
		"so each is taken as offered in every zone of the region (a catalog gap, not Azure's zone data); the Azure provider offers a size only in the zones "+
		"Azure lists for it (az vm list-skus --location %s --size <size> --zone)",
		sim.Method, n, len(sim.Nodes), strings.Join(sizes, ", "), sim.Region, sim.Region)}
}
