package analysis

import (
	"slices"
	"sync"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks"
)

// builtinClouds are the clouds every solver serves, Azure first (it serves NodePools that
// name no node-class group), then AWS (NodePools whose nodeClassRef.group is
// karpenter.k8s.aws), over its embedded EC2 catalog. Adding a cloud is its package plus one line here.
func builtinClouds(azure *catalog.Catalog) []cloud.Cloud {
	return []cloud.Cloud{
		aks.NewCloud(azure),
		eks.NewCloud(nil),
	}
}

// New returns a solver over the built-in clouds, Azure's over the given SKU catalog
// (catalog.Default() for the embedded one).
func New(azure *catalog.Catalog) *Analyzer { return NewWithClouds(builtinClouds(azure)...) }

// builtin is the built-in clouds over their embedded catalogs, for what needs no catalog
// (label domains and keys); catalogs are decoded only if a derivation asks for them.
var builtin = sync.OnceValue(func() *cloud.Registry { return cloud.NewRegistry(builtinClouds(nil)...) })

// KnownRegions lists the regions some built-in cloud's embedded catalog knows, sorted.
func KnownRegions() []string {
	var out []string
	for _, c := range builtin().All() {
		out = append(out, c.Regions()...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// CloudServing is the built-in cloud that serves a NodePool whose nodeClassRef names group
// (the default cloud for no group or an unknown one), for what needs its words or label keys.
func CloudServing(group string) cloud.Cloud { return builtin().Serving(group) }

// Builtin is the registry of the built-in clouds over their embedded catalogs.
func Builtin() *cloud.Registry { return builtin() }
