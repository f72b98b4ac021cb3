package review

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// nodeClassOfLabels is the node class a v1beta1 pool's nodeClassRef without an apiVersion
// meant: the one of the kind it names, else of the one cloud whose label domains its
// requirements use (karpenter.k8s.aws/instance-category: EKS's EC2NodeClass). inferred is
// false when nothing in the pool says; the default cloud's class is returned then.
func nodeClassOfLabels(requirements any, ref map[string]any) (class schema.GroupKind, inferred bool) {
	clouds := analysis.Builtin().All()
	if kind, _ := ref["kind"].(string); kind != "" {
		for _, c := range clouds {
			for _, gk := range c.NodeClassKinds() {
				if gk.Kind == kind {
					return gk, true
				}
			}
		}
	}
	var found []cloud.Cloud
	reqs, _ := requirements.([]any)
	for _, r := range reqs {
		key, _ := r.(map[string]any)["key"].(string)
		domain, _, ok := strings.Cut(key, "/")
		if !ok {
			continue
		}
		for _, c := range clouds {
			if slices.Contains(c.LabelDomains(), domain) && !slices.Contains(found, c) {
				found = append(found, c)
			}
		}
	}
	if len(found) == 1 {
		return found[0].NodeClassKinds()[0], true
	}
	return analysis.Builtin().Default().NodeClassKinds()[0], false
}

// classByRegion gives the converted pools whose cloud nothing in them said (classGuessed) the
// node class of the cloud the cluster's region belongs to, when only one cloud has it: a
// v1beta1 EKS pool reviewed with --region us-east-1 is an EKS pool.
func classByRegion(c *Cluster) {
	var owner cloud.Cloud
	for _, cl := range analysis.Builtin().All() {
		if c.Region == "" || !cl.HasRegion(c.Region) {
			continue
		}
		if owner != nil {
			return
		}
		owner = cl
	}
	if owner == nil || owner == analysis.Builtin().Default() {
		return
	}
	gk := owner.NodeClassKinds()[0]
	for i, p := range c.NodePools {
		if !p.classGuessed {
			continue
		}
		p = p.clone()
		if ref, ok := p.Get("spec", "template", "spec", "nodeClassRef").(map[string]any); ok {
			ref["group"], ref["kind"] = gk.Group, gk.Kind
		}
		p.classGuessed = false
		c.NodePools[i] = p
	}
}
