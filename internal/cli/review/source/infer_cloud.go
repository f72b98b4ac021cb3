package source

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
