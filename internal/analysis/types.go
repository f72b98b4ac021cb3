package analysis

import (
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// RegionTypes is a region's instance types for one node class as the simulations read them
// from the solver's cache (internal/simulation/optimal, and the Karpenter emulation's glue in
// internal/simulation): the same derivation, requirement index and admissibility the
// analysis uses, so that a simulation never launches a type the analysis rejects.
type RegionTypes struct{ rt *regionTypes }

// RegionTypes returns the instance types of a region (AnyRegion for every size) for a node
// class, deriving them once per solver.
func (s *Analyzer) RegionTypes(region string, nc cloud.NodeClass) RegionTypes {
	return RegionTypes{s.types(region, nc)}
}

// Launcher is the launch choice of the cloud the types are from (its allocation strategy).
func (t RegionTypes) Launcher() cloud.Launcher { return t.rt.cloud }

// InstanceTypes are the derived types, in the order AdmissibleAll answers for them.
func (t RegionTypes) InstanceTypes() []*cloud.InstanceType { return t.rt.result.InstanceTypes }

// CloudProvider are the same types as Karpenter's cloud provider hands them to its scheduler.
func (t RegionTypes) CloudProvider() cloudprovider.InstanceTypes { return t.rt.types }

// ByName is the derived type of a size, nil when the region has no such size.
func (t RegionTypes) ByName(name string) *cloud.InstanceType { return t.rt.byName[name] }

// Admissible returns the offerings of one type that requirements admit (none when the type
// itself is not admitted), as Karpenter's scheduler judges them.
func (t RegionTypes) Admissible(it *cloud.InstanceType, reqs scheduling.Requirements) cloudprovider.Offerings {
	return t.rt.admissible(it, reqs)
}

// AdmissibleAll is Admissible for every type at once, in InstanceTypes order, through the
// requirement index.
func (t RegionTypes) AdmissibleAll(reqs scheduling.Requirements) []cloudprovider.Offerings {
	return t.rt.admissibleAll(reqs)
}

// RequirementsKey is a canonical string for requirements: the same for the same requirements
// whatever their order, so that callers judge each distinct set once.
func RequirementsKey(reqs scheduling.Requirements) string {
	return string(appendCanonicalSet(nil, reqs, ""))
}

// OfferingLabels are what the optimum reads of an offering for every packing: its zone
// (cloud.ZoneOf: "" when it has none) and whether it is spot.
type OfferingLabels struct {
	Zone string
	Spot bool
}

// Labels returns an offering's OfferingLabels, read from its requirements once per solver for
// every offering of these types (a lookup instead of two requirement reads per offering and
// packing).
func (t RegionTypes) Labels(of *cloudprovider.Offering) OfferingLabels {
	t.rt.labelsOnce.Do(func() {
		t.rt.labels = map[*cloudprovider.Offering]OfferingLabels{}
		for _, it := range t.rt.result.InstanceTypes {
			for _, o := range it.Offerings {
				t.rt.labels[o] = offeringLabels(o)
			}
		}
	})
	if l, ok := t.rt.labels[of]; ok {
		return l
	}
	return offeringLabels(of)
}

func offeringLabels(of *cloudprovider.Offering) OfferingLabels {
	return OfferingLabels{Zone: cloud.ZoneOf(of), Spot: of.CapacityType() == "spot"}
}
