package analysis

import (
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// Cloud is the cloud that served the pool (its vocabulary names the pool's label keys).
func (a *Analysis) Cloud() cloud.Cloud { return a.cloud }

// otherCloudOwning returns the registered cloud other than c whose well-known labels hold key
// (an AKS pool asking for karpenter.k8s.aws/instance-family), or nil. Karpenter on c treats
// such a key as a custom label: nodes get it from the requirement and no instance type is
// selected by it, which is rarely what the author of a copied pool meant.
func (s *Analyzer) otherCloudOwning(c cloud.Cloud, key string) cloud.Cloud {
	for _, o := range s.clouds.All() {
		if o.Name() != c.Name() && o.WellKnownLabels().Has(key) && wellKnownDomain(o, key) {
			return o
		}
	}
	return nil
}

// counterpart is the key of the pool's cloud that plays the role key plays on the other
// cloud (instance-cpu ↔ sku-cpu, instance-family ↔ sku-family, ...): the did-you-mean of a
// label copied from a pool of another cloud.
func counterpart(key string, from, to cloud.Vocabulary) []string {
	pairs := [][2]string{
		{from.CPUKey, to.CPUKey}, {from.MemoryKey, to.MemoryKey}, {from.FamilyKey, to.FamilyKey},
		{from.CategoryKey, cmpOr(to.CategoryKey, to.FamilyKey)}, {from.GPUCountKey, to.GPUCountKey},
		{from.GPUNameKey, to.GPUNameKey}, {from.GPUManufacturerKey, to.GPUManufacturerKey},
	}
	for _, p := range pairs {
		if p[0] != "" && p[0] == key && p[1] != "" {
			return []string{p[1]}
		}
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// checkCaveats reports, once, what the pool's cloud's catalog lacks for the analysed region
// (KRP125): on EKS, zones (the public data has none) and, for regions without their own
// table, on-demand or spot prices. The checks that would need the data are not run on a
// guess (single-zone findings come only from the pool's own zone requirement).
func checkCaveats(c cloud.Cloud, a *Analysis) {
	cv, ok := c.(cloud.Caveats)
	if !ok || len(a.Regions) == 0 {
		return
	}
	var notes []string
	for _, r := range a.Regions {
		for _, n := range cv.RegionCaveats(r) {
			if !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
	}
	if len(notes) == 0 {
		return
	}
	a.add(findings.Finding{Code: findings.CatalogGap, Message: strings.Join(notes, "; "),
		Fix: "nothing to change in the pool; treat zone spread and prices as unknown where the note says so"})
}
